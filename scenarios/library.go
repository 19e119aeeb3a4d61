package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"smpscope/scenarios/syntax"
)

//go:embed library/*.litmus
var libraryFS embed.FS

// Entry is one built-in scenario of the library.
type Entry struct {
	Name     string // the name after "C"
	File     string // file name in the library, e.g. "mp-wmb-rmb.litmus"
	Family   string // e.g. "Message passing"
	Variant  string // e.g. "smp_wmb + smp_rmb"
	Title    string
	Result   syntax.Observation // expected LKMM verdict, "" if not given
	Source   string             // the file's text
	Scenario *syntax.Scenario   // parsed; shared, do not modify (Lookup returns a fresh copy)
	// Baseline marks the variant its family opens on: the broken one
	// the fixes are compared with (see libraryOrder).
	Baseline bool
}

// Family groups the library entries of one family, in variant order.
type Family struct {
	Name    string
	Entries []*Entry
}

var (
	libraryOnce    sync.Once
	libraryEntries []*Entry
	libraryErr     error
)

// Library returns the built-in scenarios, parsed and sorted by family
// (in the library order: the classic teaching shapes, the kernel-patch
// families, the other shapes; see libraryOrder), then variant, then name. If any library file fails to parse, it returns
// that error.
func Library() ([]*Entry, error) {
	libraryOnce.Do(func() { libraryEntries, libraryErr = loadLibrary(libraryFS, "library") })
	return libraryEntries, libraryErr
}

func loadLibrary(fsys fs.FS, dir string) ([]*Entry, error) {
	files, err := fs.Glob(fsys, dir+"/*.litmus")
	if err != nil {
		return nil, err
	}
	var out []*Entry
	byName := map[string]string{}
	var errs []error
	for _, f := range files {
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		base := path.Base(f)
		s, err := Parse("library/"+base, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := byName[s.Name]; dup {
			errs = append(errs, fmt.Errorf("library/%s: test name %q is also used by %s", base, s.Name, other))
			continue
		}
		byName[s.Name] = base
		out = append(out, &Entry{
			Name: s.Name, File: base, Family: s.Meta.Family, Variant: s.Meta.Variant,
			Title: s.Meta.Title, Result: s.Meta.Result, Source: string(src), Scenario: s,
		})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := familyRank(a.Family), familyRank(b.Family); ra != rb {
			return ra < rb
		}
		if a.Family != b.Family {
			return a.Family < b.Family
		}
		if a.Variant != b.Variant {
			return a.Variant < b.Variant
		}
		return a.Name < b.Name
	})
	markBaselines(out)
	return out, nil
}

// Families returns the library grouped by family, in Library order.
func Families() ([]Family, error) {
	entries, err := Library()
	if err != nil {
		return nil, err
	}
	var out []Family
	for _, e := range entries {
		if len(out) == 0 || out[len(out)-1].Name != e.Family {
			out = append(out, Family{Name: e.Family})
		}
		f := &out[len(out)-1]
		f.Entries = append(f.Entries, e)
	}
	return out, nil
}

// findEntry returns the library entry whose C name or file base name
// (with or without ".litmus") is name.
func findEntry(entries []*Entry, name string) *Entry {
	for _, e := range entries {
		if e.Name == name || e.File == name || strings.TrimSuffix(e.File, ".litmus") == name {
			return e
		}
	}
	return nil
}

// Builtin returns the library entry with the given C name or file base
// name (with or without ".litmus").
func Builtin(name string) (*Entry, error) {
	entries, err := Library()
	if err != nil {
		return nil, err
	}
	if e := findEntry(entries, name); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("no built-in scenario named %q%s", name, nameHint(name, entries))
}

// Lookup returns a freshly parsed copy of the built-in scenario with the
// given C name or file base name (with or without ".litmus").
func Lookup(name string) (*syntax.Scenario, error) {
	e, err := Builtin(name)
	if err != nil {
		return nil, err
	}
	return Parse("library/"+e.File, []byte(e.Source))
}

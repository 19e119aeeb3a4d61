package litmusgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Models are herd7's three models, as ../shared/tools/herd7/verdict names
// them: the Linux-kernel memory model, x86-TSO and ARMv8 (the last two
// with the kernel's mappings).
var Models = []string{"lkmm", "tso", "arm"}

// Herd runs herd7 through the shared verdict script.
type Herd struct {
	// Script is the path of tools/herd7/verdict.
	Script string
	// Timeout bounds one herd7 run (default 20 s).
	Timeout time.Duration
	// TmpDir holds the files herd7 reads (default os.TempDir()).
	TmpDir string
}

// FindHerd looks for shared/tools/herd7/verdict in dir and its parents'
// "shared" siblings (the worktree layout puts it at ../shared from the
// repository root). $SMPSCOPE_HERD7 names the script directly.
func FindHerd(dir string) (*Herd, error) {
	if s := os.Getenv("SMPSCOPE_HERD7"); s != "" {
		if _, err := os.Stat(s); err != nil {
			return nil, err
		}
		return &Herd{Script: s}, nil
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		s := filepath.Join(d, "shared", "tools", "herd7", "verdict")
		if st, err := os.Stat(s); err == nil && !st.IsDir() {
			return &Herd{Script: s}, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return nil, errors.New("shared/tools/herd7/verdict not found above " + dir)
		}
		d = up
	}
}

// HerdResult is what one herd7 run said.
type HerdResult struct {
	Model string
	// Accepted is true when herd7 printed an Observation line.
	Accepted bool
	TimedOut bool
	// Error is herd7's complaint when it did not accept the test.
	Error string
	// States are the final states, canonical (see CanonState) and sorted.
	States []string
	// Observation is Always, Sometimes or Never.
	Observation string
	Flags       []string
	Elapsed     time.Duration
}

// HasFlag reports whether herd7 raised the flag (e.g. "data-race").
func (r *HerdResult) HasFlag(f string) bool { return slices.Contains(r.Flags, f) }

// Run runs herd7 with one model on a test's source.
func (h *Herd) Run(ctx context.Context, model, name, src string) *HerdResult {
	res := &HerdResult{Model: model}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	f, err := os.CreateTemp(h.TmpDir, "litmusgen-*.litmus")
	if err != nil {
		res.Error = err.Error()
		return res
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(src); err != nil {
		f.Close()
		res.Error = err.Error()
		return res
	}
	f.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// herd7's own CPU-time limit ends it cleanly; the context is the
	// backstop.
	secs := strconv.FormatFloat(timeout.Seconds(), 'f', 1, 64)
	cmd := exec.CommandContext(ctx, h.Script, model, "-timeout", secs, f.Name())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	res.Elapsed = time.Since(start)
	parseHerd(out.String(), res)
	if !res.Accepted {
		res.TimedOut = ctx.Err() != nil || res.Elapsed >= timeout || (err == nil && errb.Len() == 0 && out.Len() == 0)
		res.Error = strings.TrimSpace(errb.String())
		if res.Error == "" && err != nil {
			res.Error = err.Error()
		}
	}
	return res
}

// parseHerd reads herd7's output: "States N", N state lines, "Flag F"
// lines and the "Observation NAME Verdict P N" line.
func parseHerd(out string, res *HerdResult) {
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(l, "States "):
			n, err := strconv.Atoi(strings.TrimPrefix(l, "States "))
			if err != nil {
				continue
			}
			for j := 0; j < n && i+1 < len(lines); j++ {
				i++
				res.States = append(res.States, CanonState(lines[i]))
			}
		case strings.HasPrefix(l, "Flag "):
			res.Flags = append(res.Flags, strings.TrimPrefix(l, "Flag "))
		case strings.HasPrefix(l, "Observation "):
			f := strings.Fields(l)
			if len(f) >= 3 {
				res.Observation = f[2]
				res.Accepted = true
			}
		}
	}
	slices.Sort(res.States)
	res.States = slices.Compact(res.States)
}

// CanonState normalises a final state as herd7 or smpscope print it
// ("0:r0=1; [x]=2;" or "0:r0=1; x=2;"): location brackets dropped, items
// sorted by name, "name=value; " joined. Values are kept as printed:
// decimal integers, pointers as location names.
func CanonState(s string) string {
	var items []string
	for _, it := range strings.Split(s, ";") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		k, v, ok := strings.Cut(it, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		k = strings.TrimSuffix(strings.TrimPrefix(k, "["), "]")
		v = strings.TrimSpace(v)
		v = strings.TrimPrefix(v, "&")
		items = append(items, k+"="+v)
	}
	slices.SortFunc(items, func(a, b string) int {
		ka, _, _ := strings.Cut(a, "=")
		kb, _, _ := strings.Cut(b, "=")
		return strings.Compare(ka, kb)
	})
	if len(items) == 0 {
		return ""
	}
	return strings.Join(items, "; ") + ";"
}

// StateCond turns a canonical state into an exists condition
// ("0:r0=1 /\ x=2").
func StateCond(state string) string {
	var atoms []string
	for _, it := range strings.Split(state, ";") {
		if it = strings.TrimSpace(it); it != "" {
			atoms = append(atoms, it)
		}
	}
	if len(atoms) == 0 {
		return "true"
	}
	return strings.Join(atoms, ` /\ `)
}

func (r *HerdResult) String() string {
	switch {
	case r.Accepted:
		return fmt.Sprintf("%s: %s, %d states", r.Model, r.Observation, len(r.States))
	case r.TimedOut:
		return r.Model + ": timeout"
	}
	return r.Model + ": rejected: " + r.Error
}

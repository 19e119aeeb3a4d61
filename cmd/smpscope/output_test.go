//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A failed output never destroys a file (issue 22, item 2): when the
// second output of record or trace cannot be written, the first is left as
// it was — an existing file, a symbolic link, a device — and a file the
// run created is gone again.
func TestFailedOutputKeepsWhatWasThere(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	link := filepath.Join(dir, "link")
	os.Symlink("/dev/null", link)
	fresh := filepath.Join(dir, "fresh")
	bad := []string{"/dev/full"} // fails when written, not when checked
	if fi, err := os.Stat("/proc/self"); err == nil && fi.IsDir() {
		bad = append(bad, "/proc/nope.tape") // a directory no file can be created in
	}
	for _, b := range bad {
		for _, tc := range [][]string{
			{"record", "mp+once", "--out", existing, "--force", "--tape", b},
			{"record", "mp+once", "--out", link, "--force", "--tape", b},
			{"record", "mp+once", "--out", fresh, "--tape", b},
			{"trace", "mp+once", "--out", existing, "--force", "--save", b},
			{"trace", "mp+once", "--out", link, "--force", "--save", b},
			{"trace", "mp+once", "--out", fresh, "--save", b},
		} {
			os.WriteFile(existing, []byte("mine"), 0o600)
			_, errs, code := runCmd(t, tc...)
			if code != 2 || !strings.Contains(errs, "cannot write "+b) {
				t.Errorf("%v: exit %d, %q", tc, code, errs)
			}
			if data, err := os.ReadFile(existing); string(data) != "mine" {
				t.Errorf("%v: the existing file now holds %d bytes (%v)", tc, len(data), err)
			}
			if dest, err := os.Readlink(link); dest != "/dev/null" {
				t.Errorf("%v: the symbolic link is gone (%v)", tc, err)
			}
			if _, err := os.Stat(fresh); err == nil {
				t.Errorf("%v: the new file was left behind", tc)
			}
			if _, err := os.Stat("/dev/null"); err != nil {
				t.Fatalf("%v: /dev/null is gone", tc)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 2 {
				t.Errorf("%v: %d files left in the directory", tc, len(ents))
			}
		}
	}
}

// Every output path is checked before anything is printed or written: a
// dangling symbolic link is refused up front, not after the trace was
// printed (issue 22, item 6).
func TestOutputsCheckedBeforePrinting(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	for _, tc := range [][]string{
		{"trace", "mp+once", "--save", dangling},
		{"trace", "mp+once", "--save", dangling, "--force"},
		{"trace", "mp+once", "--out", dangling, "--force"},
		{"record", "mp+once", "--out", filepath.Join(dir, "x.cast"), "--tape", dangling},
	} {
		out, errs, code := runCmd(t, tc...)
		if code != 2 || out != "" || !strings.Contains(errs, "is a symbolic link to "+filepath.Join(dir, "nowhere")+", which does not exist") {
			t.Errorf("%v: exit %d, stdout %d bytes, %q", tc, code, len(out), errs)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%v: %d files in the directory", tc, len(ents))
		}
	}
}

// Outputs replace what --force lets them replace, keep its mode, follow
// a symbolic link to the file it names, and write devices in place.
func TestOutputsReplace(t *testing.T) {
	dir := t.TempDir()
	cast := filepath.Join(dir, "demo.cast")
	os.WriteFile(cast, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.cast")
	os.Symlink("demo.cast", link)
	if _, errs, code := runCmd(t, "record", "mp+once", "--out", link, "--force", "--tape", filepath.Join(dir, "demo.tape")); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	fi, err := os.Stat(cast)
	if err != nil || fi.Size() < 100 || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file the link names: %v, %v", fi, err)
	}
	if dest, _ := os.Readlink(link); dest != "demo.cast" {
		t.Errorf("the link was replaced: %q", dest)
	}
	if _, errs, code := runCmd(t, "trace", "mp+once", "--out", "/dev/null", "--save", filepath.Join(dir, "t.trace")); code != 0 {
		t.Errorf("--out /dev/null: exit %d: %s", code, errs)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "demo.cast demo.tape link.cast t.trace" {
		t.Errorf("the directory holds %q", names)
	}
}

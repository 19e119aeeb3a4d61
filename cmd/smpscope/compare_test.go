package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareText(t *testing.T) {
	out, errs, code := runCmd(t, "compare", "mp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "Family mp: exists (1:r0=1 /\\ 1:r1=0)\n") {
		t.Errorf("header:\n%s", out)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = strings.Join(f[1:], " ")
		}
	}
	for variant, want := range map[string]string{
		"Variant": "TSO ARM-like LKMM",
		"once":    "Never 0/3 Sometimes 1/4 Sometimes",
		"wmb-rmb": "Never 0/3 Never 0/3 Never",
		"rel-acq": "Never 0/3 Never 0/3 Never",
		"mb":      "Never 0/3 Never 0/3 Never",
	} {
		if rows[variant] != want {
			t.Errorf("row %s: got %q, want %q\n%s", variant, rows[variant], want, out)
		}
	}
	// Columns line up: every cell of the ARM-like column starts where its
	// header does.
	lines := strings.Split(out, "\n")
	col := -1
	for _, l := range lines {
		if strings.HasPrefix(l, "Variant") {
			col = strings.Index(l, "ARM-like")
		} else if col > 0 && (strings.HasPrefix(l, "once ") || strings.HasPrefix(l, "mb ")) {
			if l[col-1] != ' ' || l[col] == ' ' {
				t.Errorf("misaligned row %q (column %d)", l, col)
			}
		}
		if len(l) > 72 {
			t.Errorf("line wider than 72: %q", l)
		}
	}
	// A scenario name selects its family.
	if again, _, code := runCmd(t, "compare", "mp+once"); code != 0 || again != out {
		t.Errorf("compare mp+once: exit %d\n%s", code, again)
	}
}

func TestCompareMarkdown(t *testing.T) {
	out, _, code := runCmd(t, "compare", "sb", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	mustContain(t, out,
		"**sb**: `exists (0:r0=0 /\\ 1:r1=0)`\n",
		"| Variant | TSO | ARM-like | LKMM |\n|---|---|---|---|\n",
		"| `once` | Sometimes 1/4 | Sometimes 1/4 | Sometimes |\n",
		"| `mb` | Never 0/3 | Never 0/3 | Never |\n",
		"| `rel-acq` | Sometimes 1/4 | Never 0/3 | Sometimes |\n",
	)
}

func TestCompareErrors(t *testing.T) {
	_, errs, code := runCmd(t, "compare", "no-such-family")
	if code != 2 || !strings.Contains(errs, "no built-in family \"no-such-family\"") || !strings.Contains(errs, "seqcount") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if _, _, code := runCmd(t, "compare"); code != 2 {
		t.Fatalf("no argument: exit %d", code)
	}
}

// TestCompareEditsAndFiles: compare takes a scenario with its what-ifs
// (one row per --edit flag) and scenarios by name or file, as well as
// families (issue 18).
func TestCompareEditsAndFiles(t *testing.T) {
	out, errs, code := runCmd(t, "compare", "sb+once", "--edit", "P0:1+mb", "--edit", "P0:1+mb,P1:1+mb")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "  "); i > 0 {
			rows[l[:i]] = strings.Join(strings.Fields(l[i:]), " ")
		}
	}
	for label, want := range map[string]string{
		"as written":      "Sometimes 1/4 Sometimes 1/4 Sometimes",
		"P0:1+mb":         "Sometimes 1/4 Sometimes 1/4 -",
		"P0:1+mb P1:1+mb": "Never 0/3 Never 0/3 -",
	} {
		if rows[label] != want {
			t.Errorf("row %q: %q, want %q\n%s", label, rows[label], want, out)
		}
	}
	if !strings.HasPrefix(out, "sb+once and 2 what-ifs: exists (0:r0=0 /\\ 1:r1=0)\n") {
		t.Errorf("title:\n%s", out)
	}
	// Files and names, one row each; a file wins over a built-in name.
	dir := t.TempDir()
	src, _, _ := runCmd(t, "show", "mp+wmb-rmb")
	file := filepath.Join(dir, "mine.litmus")
	os.WriteFile(file, []byte(strings.Replace(src, "C mp+wmb-rmb", "C mine", 1)), 0o644)
	out, errs, code = runCmd(t, "compare", file, "mp+once")
	if code != 0 || !strings.HasPrefix(out, "2 scenarios: exists (1:r0=1 /\\ 1:r1=0)\n") || !strings.Contains(out, "\nmine     Never 0/3  Never 0/3      Never\n") || !strings.Contains(out, "\nmp+once  Never 0/3  Sometimes 1/4  Sometimes\n") {
		t.Errorf("compare FILE NAME: exit %d %s\n%s", code, errs, out)
	}
	// One file alone is a scenario, not a family.
	if out, _, code := runCmd(t, "compare", file); code != 0 || !strings.HasPrefix(out, "mine: exists") {
		t.Errorf("compare FILE:\n%s", out)
	}
	for _, args := range [][]string{
		{"compare", "sb+once", "mp+once", "--edit", "P0:1+mb"},
		{"compare", "sb+once", "--edit", "P9:1+mb"},
		{"compare", "sb+once", "--edit", ","},
		{"compare", "no-such-family"},
	} {
		if _, errs, code := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

package model

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// The README's key table is generated from the key map, lazygit-style:
// this test renders DefaultKeyMap().MarkdownTable() and fails when the
// table between the two marker comments of ../README.md differs. Run
// "go test ./model/... ./views/... -update" (the golden update command)
// to rewrite it.
const (
	keysBegin = "<!-- keys:begin (generated from model.DefaultKeyMap by TestREADMEKeys; regenerate: go test ./model/... -update) -->\n"
	keysEnd   = "<!-- keys:end -->"
)

func TestREADMEKeys(t *testing.T) {
	const path = "../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no README: %v", err)
	}
	readme := string(raw)
	i := strings.Index(readme, keysBegin)
	j := strings.Index(readme, keysEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the key table markers %q … %q", strings.TrimSpace(keysBegin), keysEnd)
	}
	want := DefaultKeyMap().MarkdownTable()
	got := readme[i+len(keysBegin) : j]
	if got == want {
		return
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		readme = readme[:i+len(keysBegin)] + want + readme[j:]
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's key table is out of date; regenerate it with: go test ./model/... -update\ngot:\n%s\nwant:\n%s", got, want)
}

func TestMarkdownTable(t *testing.T) {
	table := DefaultKeyMap().MarkdownTable()
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if lines[0] != "| Key | Action |" || lines[1] != "|---|---|" {
		t.Fatalf("header %q %q", lines[0], lines[1])
	}
	// Every binding of the full help has a row, with its keys.
	rows := 0
	for _, group := range DefaultKeyMap().FullHelp() {
		for _, b := range group {
			rows++
			k := "`" + strings.ReplaceAll(b.Help().Key, "/", "` / `") + "`"
			if !strings.Contains(table, "| "+k+" | ") {
				t.Errorf("no row for %s", k)
			}
		}
	}
	for _, title := range fullHelpTitles {
		if !strings.Contains(table, "| **"+title+"** |") {
			t.Errorf("no section %q", title)
		}
	}
	if got := len(lines) - 2 - len(fullHelpTitles) - 3; got != rows {
		t.Errorf("%d binding rows, want %d", got, rows)
	}
	for _, l := range lines {
		if strings.Count(l, " | ")+strings.Count(l, "|---|") < 1 {
			t.Errorf("malformed row %q", l)
		}
	}
}

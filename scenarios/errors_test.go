package scenarios

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"smpscope/scenarios/syntax"
)

// TestErrorChunks runs every bad input of testdata/errors.litmus-chunks
// through Parse and Compile and checks that the first error is reported on
// the line carrying the ### "regex" marker, with a matching message.
func TestErrorChunks(t *testing.T) {
	data, err := os.ReadFile("testdata/errors.litmus-chunks")
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`\s*### "(.*)"\s*$`)
	lines := strings.Split(string(data), "\n")
	var chunks [][]string
	var starts []int
	for i, l := range lines {
		if l == "---" {
			chunks = append(chunks, nil)
			starts = append(starts, i+2)
			continue
		}
		if len(chunks) > 0 {
			chunks[len(chunks)-1] = append(chunks[len(chunks)-1], l)
		}
	}
	if len(chunks) < 50 {
		t.Fatalf("only %d chunks", len(chunks))
	}
	for ci, chunk := range chunks {
		wantLine := 0
		var wantRe *regexp.Regexp
		src := make([]string, len(chunk))
		for i, l := range chunk {
			if m := marker.FindStringSubmatchIndex(l); m != nil {
				if wantRe != nil {
					t.Fatalf("chunk at line %d has two markers", starts[ci])
				}
				wantLine = i + 1
				wantRe = regexp.MustCompile(l[m[2]:m[3]])
				l = l[:m[0]]
			}
			src[i] = l
		}
		if wantRe == nil {
			t.Errorf("chunk at line %d has no ### marker", starts[ci])
			continue
		}
		// No trailing newline, so that an error at end of file is on the
		// last line.
		text := strings.TrimRight(strings.Join(src, "\n"), "\n")
		s, err := Parse("chunk", []byte(text))
		if err == nil {
			_, err = Compile(s)
		}
		where := starts[ci] + wantLine - 1
		if err == nil {
			t.Errorf("errors.litmus-chunks:%d: no error, want %q", where, wantRe)
			continue
		}
		e, ok := err.(syntax.Error)
		if !ok {
			t.Errorf("errors.litmus-chunks:%d: error %v is a %T, not an Error", where, err, err)
			continue
		}
		if e.Pos.Line != wantLine || !wantRe.MatchString(e.Msg) {
			t.Errorf("errors.litmus-chunks:%d: got %v (line %d), want line %d matching %q", where, err, e.Pos.Line, wantLine, wantRe)
		}
		if e.Pos.File != "chunk" || e.Pos.Col < 1 {
			t.Errorf("errors.litmus-chunks:%d: position %v lacks file or column", where, e.Pos)
		}
	}
}

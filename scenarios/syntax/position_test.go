package syntax_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
)

// refPosition is where the byte at off of src is, counted as the scanner's
// rule says: lines from 1, and columns from 1 in characters, each invalid
// UTF-8 byte one character (a byte order mark is not counted).
func refPosition(src string, off int) (line, col int) {
	line, col = 1, 1
	i := 0
	if strings.HasPrefix(src, "\uFEFF") {
		i = 3
	}
	for i < off {
		if src[i] == '\n' {
			line, col, i = line+1, 1, i+1
			continue
		}
		_, n := utf8.DecodeRuneInString(src[i:])
		col, i = col+1, i+n
	}
	return line, col
}

// TestPositionsAfterComments: an error after comments and words is placed
// where counting character by character places it, whatever the comments
// hold (line breaks, tabs, carriage returns, multi-byte characters,
// invalid UTF-8, the other kind of comment's delimiters).
func TestPositionsAfterComments(t *testing.T) {
	bodies := []string{"", " plain ", "é日本\u202e", "a\nb\n\nc", "\xff\xfe x \xc3", "tab\there\r\n", "(* /* // *", "\n é\n\xff"}
	for _, body := range bodies {
		noClose := strings.NewReplacer("*)", "", "*/", "").Replace(body)
		oneLine := strings.ReplaceAll(noClose, "\n", " ")
		for _, src := range []string{
			"C t\n(*" + noClose + "*) { #\n",
			"\uFEFFC t\n(*" + noClose + "*)\n{ /*" + noClose + "*/ #\n",
			"C t\n{ x = 1; }\nP0(int *x)\n{\n\tint r0; /*" + noClose + "*/ r0 = READ_ONCE(*x); #\n}\n",
			"C t\n{ x = 1; }\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1); //" + oneLine + "\n\tlongidentifier42 #\n}\n",
		} {
			_, err := scenarios.Parse("t", []byte(src))
			var e syntax.Error
			if !errors.As(err, &e) {
				t.Errorf("%q: %v, want an error at the #", src, err)
				continue
			}
			line, col := refPosition(src, strings.LastIndexByte(src, '#'))
			if e.Pos.Line != line || e.Pos.Col != col {
				t.Errorf("%q: error at %d:%d (%s), want %d:%d", src, e.Pos.Line, e.Pos.Col, e.Msg, line, col)
			}
		}
	}
}

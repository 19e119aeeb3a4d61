package syntax_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"smpscope/scenarios/syntax"
)

// printableRef is Printable written rune by rune, as the rule says: what
// Printable's faster scan must agree with.
func printableRef(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case syntax.PrintableRune(r):
			b.WriteString(s[i : i+n])
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		i += n
	}
	return b.String()
}

// TestPrintableAgreesWithRule: Printable escapes exactly what the
// rune-by-rune rule escapes, on every byte alone, on hand-picked strings
// (ASCII before and after what needs escaping, invalid UTF-8, C1
// controls, bidirectional overrides) and on random strings.
func TestPrintableAgreesWithRule(t *testing.T) {
	cases := []string{"", "Observation x Never 0 3\n", "tab\there", "é", "a\x1b[31mred", "ok\x7f", "\xff", "abc\xc3", "\u202eevil", "\u0085next", "x\r\n", "日本\x00"}
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), "P0 "+string([]byte{byte(b)})+" end")
	}
	for _, s := range cases {
		if got, want := syntax.Printable(s), printableRef(s); got != want {
			t.Errorf("Printable(%q) = %q, want %q", s, got, want)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		s := rapid.OneOf(
			rapid.String(),
			rapid.Map(rapid.SliceOf(rapid.Int32Range(0, 0xa0)), func(r []int32) string { return string(r) }), // mostly ASCII, controls and C1 included
			rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),               // invalid UTF-8 too
		).Draw(rt, "s")
		if got, want := syntax.Printable(s), printableRef(s); got != want {
			rt.Fatalf("Printable(%q) = %q, want %q", s, got, want)
		}
	})
}

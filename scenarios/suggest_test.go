package scenarios

import (
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"mp+onse", "mp+once", 1},
		{"mp+ocne", "mp+once", 1}, // a swap
		{"mp+one", "mp+once", 1},
		{"", "abc", 3},
		{"sb", "mp", 2},
		{"same", "same", 0},
	} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestSuggestions(t *testing.T) {
	names := []string{"mp+once", "mp+mb", "sb+once", "lb+once", "s+once", "ext4-last-group+once"}
	for _, c := range []struct{ in, want string }{
		{"mp+onse", "mp+once"},
		{"MP+ONSE.litmus", "mp+once"},
		{"sb+oce", "sb+once lb+once s+once"},
		{"xyz", ""},
		{"ab", ""}, // too short to guess from
		{"ext4-last-grop+once", "ext4-last-group+once"},
		{"mp-once", "mp+once"},                          // a separator mistyped: the closer kind only
		{"ext4-lastgroup+once", "ext4-last-group+once"}, // near once the separators are left out
		{"ext4", "ext4-last-group+once"},                // the start of a name, at a separator
		{"ext", ""},                                     // not at a separator
	} {
		if got := strings.Join(suggestions(c.in, names), " "); got != c.want {
			t.Errorf("suggestions(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestResolveSuggests: a mistyped name is answered with the names it is
// closest to, a family's name with the family's scenarios.
func TestResolveSuggests(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"mp+onse", "did you mean mp+once?"},
		{"sb-end-wrte+mb-inside-if", "did you mean sb-end-write+mb-inside-if?"},
		{"mp", "mp is a family, of mp+mb, mp+once, mp+rel-acq, mp+wmb-rmb"},
	} {
		_, err := Resolve(c.arg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%q): %v, want %q", c.arg, err, c.want)
		}
	}
	if _, err := Builtin("mp+onse"); err == nil || !strings.Contains(err.Error(), "did you mean mp+once?") {
		t.Errorf("Builtin: %v", err)
	}
	if _, err := FindFamily("sb-freze"); err == nil || !strings.Contains(err.Error(), "did you mean sb-freeze?") {
		t.Errorf("FindFamily: %v", err)
	}
	// Issue 19: check ext4-lastgroup and compare ext4 suggest.
	if _, err := Resolve("ext4-lastgroup", nil); err == nil || !strings.Contains(err.Error(), "did you mean the family ext4-last-group, of ext4-last-group+acq-flag, ") {
		t.Errorf("Resolve(ext4-lastgroup): %v", err)
	}
	if _, err := FindFamily("ext4"); err == nil || !strings.Contains(err.Error(), "did you mean ext4-last-group?") {
		t.Errorf("FindFamily(ext4): %v", err)
	}
	if _, err := Resolve("qqqqqqqq", nil); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("Resolve of nothing like a name: %v", err)
	}
}

// boundedDistance agrees with editDistance up to the limit, and says
// "over" for names whose lengths alone put them further apart.
func TestBoundedDistance(t *testing.T) {
	words := []string{"", "a", "mp", "mp+once", "mp-once", "pm+once", "sb+once", "ext4-last-group", "ext4-lastgroup", "ßmp+once"}
	for _, a := range words {
		for _, b := range words {
			for limit := 0; limit <= 2; limit++ {
				d, bd := editDistance(a, b), boundedDistance(a, b, limit)
				if (d <= limit) != (bd <= limit) || d <= limit && d != bd {
					t.Errorf("boundedDistance(%q, %q, %d) = %d, editDistance %d", a, b, limit, bd, d)
				}
			}
		}
	}
	if d := boundedDistance(strings.Repeat("z", 100_000), "mp+once", 2); d <= 2 {
		t.Errorf("a 100,000-letter name is within %d of mp+once", d)
	}
}

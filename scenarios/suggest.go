package scenarios

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// suggestions returns the candidates closest to a mistyped name (at most
// three, closest first, then in the order given): those within a small
// edit distance (a typo or two, a swapped pair of letters) that is also
// less than half the name, so that short names do not match everything;
// then those that are that close once the separators (-, _, +) are left
// out of both ("ext4-lastgroup" is ext4-last-group); then, for a name of
// three letters or more, those that start with it at a separator ("ext4"
// is the start of ext4-last-group+once). Case is ignored.
func suggestions(name string, candidates []string) []string {
	name = strings.ToLower(strings.TrimSuffix(name, ".litmus"))
	limit := min(2, (len([]rune(name))-1)/2)
	bare := unseparated(name)
	type near struct {
		s    string
		d, i int
	}
	var found []near
	seen := map[string]bool{}
	for i, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		switch d := boundedDistance(name, lc, limit); {
		case d <= limit:
			found = append(found, near{c, 2 * d, i})
		case boundedDistance(bare, unseparated(lc), limit) <= limit:
			found = append(found, near{c, 2*boundedDistance(bare, unseparated(lc), limit) + 1, i})
		case len([]rune(name)) >= 3 && startsAtSeparator(lc, name):
			found = append(found, near{c, 10, i})
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].d < found[b].d })
	// A looser kind of nearness counts only when no closer kind found
	// anything: mp-once is mp+once, not also sb+once.
	for i, f := range found {
		if i > 0 && nearness(f.d) != nearness(found[0].d) {
			found = found[:i]
			break
		}
	}
	var out []string
	for _, f := range found[:min(len(found), 3)] {
		out = append(out, f.s)
	}
	return out
}

// nearness is the kind of nearness a rank of suggestions stands for:
// edit distance (0), edit distance without separators (1), a start (2).
func nearness(d int) int {
	switch {
	case d >= 10:
		return 2
	case d%2 == 1:
		return 1
	}
	return 0
}

// unseparated is a name without its separators.
func unseparated(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '+' {
			return -1
		}
		return r
	}, s)
}

// startsAtSeparator reports whether name is c's start, ending where one
// of c's parts ends (at a separator, or c's end).
func startsAtSeparator(c, name string) bool {
	if !strings.HasPrefix(c, name) {
		return false
	}
	rest := c[len(name):]
	return rest == "" || strings.ContainsRune("-_+", rune(rest[0]))
}

// didYouMean words suggestions for an error message: "; did you mean
// mp+once?" (or "… mp+once or mp+mb?"), "" without any.
func didYouMean(name string, candidates []string) string {
	s := suggestions(name, candidates)
	if len(s) == 0 {
		return ""
	}
	if len(s) == 1 {
		return "; did you mean " + s[0] + "?"
	}
	return "; did you mean " + strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1] + "?"
}

// nameHint helps with a name no built-in scenario has: a family's name
// lists its scenarios ("; mp is a family: mp+mb, mp+once, …"), else the
// names closest to it are suggested (didYouMean).
func nameHint(name string, entries []*Entry) string {
	var fam, names []string
	for _, e := range entries {
		if strings.EqualFold(e.Family, strings.TrimSuffix(name, ".litmus")) {
			fam = append(fam, e.Name)
		}
		names = append(names, e.Name)
	}
	if len(fam) > 0 {
		return "; " + name + " is a family, of " + strings.Join(fam, ", ")
	}
	// The families are candidates too: a family suggested lists its
	// scenarios, since a scenario is wanted.
	var fams []string
	members := map[string][]string{}
	for _, e := range entries {
		if e.Family != "" {
			if len(members[e.Family]) == 0 {
				fams = append(fams, e.Family)
			}
			members[e.Family] = append(members[e.Family], e.Name)
		}
	}
	s := suggestions(name, append(fams, names...))
	if len(s) == 1 && len(members[s[0]]) > 0 {
		return "; did you mean the family " + s[0] + ", of " + strings.Join(members[s[0]], ", ") + "?"
	}
	return didYouMean(name, append(fams, names...))
}

// boundedDistance is editDistance(a, b) when that is at most limit, and
// some number over limit otherwise. Names whose lengths differ by more
// than limit are that far apart already: a mistyped 100,000-character
// argument costs no 100,000-row table per candidate.
func boundedDistance(a, b string, limit int) int {
	if n, m := utf8.RuneCountInString(a), utf8.RuneCountInString(b); n-m > limit || m-n > limit {
		return limit + 1
	}
	return editDistance(a, b)
}

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent letters each
// cost one.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

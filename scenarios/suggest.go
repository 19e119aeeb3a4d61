package scenarios

import (
	"sort"
	"strings"
)

// suggestions returns the candidates closest to a mistyped name (at most
// three, closest first, then in the order given): those within a small
// edit distance (a typo or two, a swapped pair of letters) that is also
// less than half the name, so that short names do not match everything.
// Case is ignored.
func suggestions(name string, candidates []string) []string {
	name = strings.ToLower(strings.TrimSuffix(name, ".litmus"))
	limit := min(2, (len([]rune(name))-1)/2)
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
		if d := editDistance(name, strings.ToLower(c)); d <= limit {
			found = append(found, near{c, d, i})
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].d < found[b].d })
	var out []string
	for _, f := range found[:min(len(found), 3)] {
		out = append(out, f.s)
	}
	return out
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
	return didYouMean(name, names)
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

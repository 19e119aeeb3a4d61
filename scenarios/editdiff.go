package scenarios

import (
	"strings"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// What an edit changed, for people and for the history: the edited
// source against the original line by line, the instructions that are
// new or changed, and the steps of a history moved to the instructions
// they named.

// DiffLine is one line of a line diff.
type DiffLine struct {
	Op   byte // ' ' in both, '-' only in the original, '+' only in the edited
	Text string
}

// SourceDiff is the edited source against the original's, line by line,
// both as Format prints them (so layout never shows as a change); every
// line of the file is in it.
func (s *Spec) SourceDiff() []DiffLine {
	orig := s.Original()
	if orig.Litmus == nil || s.Litmus == nil {
		return nil
	}
	a := strings.Split(strings.TrimSuffix(syntax.Format(orig.Litmus), "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(syntax.Format(s.Litmus), "\n"), "\n")
	var out []DiffLine
	i, j := 0, 0
	flush := func(ti, tj int) {
		for ; i < ti; i++ {
			out = append(out, DiffLine{'-', a[i]})
		}
		for ; j < tj; j++ {
			out = append(out, DiffLine{'+', b[j]})
		}
	}
	for _, m := range commonLines(a, b) {
		flush(m[0], m[1])
		out = append(out, DiffLine{' ', a[i]})
		i, j = i+1, j+1
	}
	flush(len(a), len(b))
	return out
}

// ChangedInstrs says, for each instruction of each thread of the edited
// program, whether it is new or changed against the original's: the
// lines the CPU columns mark with ~. Nil for a spec without edits.
func (s *Spec) ChangedInstrs() [][]bool {
	orig := s.Original()
	if orig == s || orig.Program == nil || s.Program == nil {
		return nil
	}
	out := make([][]bool, len(s.Program.Threads))
	for t := range s.Program.Threads {
		if t >= len(orig.Program.Threads) {
			continue
		}
		_, out[t] = alignInstrs(&orig.Program.Threads[t], &s.Program.Threads[t])
	}
	return out
}

// RemapSteps carries a history from one program to an edited version of
// it: a step naming an instruction (commit #N, early #N) names the same
// instruction in the edited program, wherever an inserted or removed
// barrier moved it. It stops at the first step whose instruction is gone
// (and when the threads do not match).
func RemapSteps(from, to *machine.Program, steps []machine.Step) []machine.Step {
	if len(from.Threads) != len(to.Threads) {
		return nil
	}
	maps := make([][]int, len(from.Threads))
	for t := range from.Threads {
		maps[t], _ = alignInstrs(&from.Threads[t], &to.Threads[t])
	}
	out := make([]machine.Step, 0, len(steps))
	for _, st := range steps {
		if st.Kind == machine.StepEarly || st.Kind == machine.StepCommit {
			m := maps[st.CPU]
			if int(st.Arg) >= len(m) || m[st.Arg] < 0 {
				break
			}
			st.Arg = uint8(m[st.Arg])
		}
		out = append(out, st)
	}
	return out
}

// alignInstrs pairs the instructions of two versions of a thread by their
// text: unchanged ones by a longest common subsequence, and between two
// of those the changed ones by position. It returns, for each instruction
// of a, its index in b (-1: removed), and for each of b whether it is new
// or changed.
func alignInstrs(a, b *machine.Thread) ([]int, []bool) {
	ta := make([]string, len(a.Code))
	for i := range a.Code {
		ta[i] = a.Code[i].Text
	}
	tb := make([]string, len(b.Code))
	for i := range b.Code {
		tb[i] = b.Code[i].Text
	}
	toB := make([]int, len(ta))
	changed := make([]bool, len(tb))
	i, j := 0, 0
	gap := func(ti, tj int) {
		for ; i < ti; i++ {
			if j < tj {
				toB[i], changed[j] = j, true
				j++
			} else {
				toB[i] = -1
			}
		}
		for ; j < tj; j++ {
			changed[j] = true
		}
	}
	for _, m := range commonLines(ta, tb) {
		gap(m[0], m[1])
		toB[i] = j
		i, j = i+1, j+1
	}
	gap(len(ta), len(tb))
	return toB, changed
}

// maxDiffCells bounds the table of the longest common subsequence; past
// it, the lines between the common prefix and suffix count as all
// changed (edits are local, so this is only reached by huge files).
const maxDiffCells = 1 << 20

// commonLines returns the index pairs of a longest common subsequence of
// a and b, in order.
func commonLines(a, b []string) [][2]int {
	var out [][2]int
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		out = append(out, [2]int{p, p})
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	ma, mb := a[p:len(a)-q], b[p:len(b)-q]
	if len(ma)*len(mb) <= maxDiffCells {
		// lcs[i][j] is the length of the longest common subsequence of
		// ma[i:] and mb[j:].
		w := len(mb) + 1
		lcs := make([]int32, (len(ma)+1)*w)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				switch {
				case ma[i] == mb[j]:
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
					lcs[i*w+j] = lcs[(i+1)*w+j]
				default:
					lcs[i*w+j] = lcs[i*w+j+1]
				}
			}
		}
		for i, j := 0, 0; i < len(ma) && j < len(mb); {
			switch {
			case ma[i] == mb[j]:
				out = append(out, [2]int{p + i, p + j})
				i, j = i+1, j+1
			case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
				i++
			default:
				j++
			}
		}
	}
	for k := 0; k < q; k++ {
		out = append(out, [2]int{len(a) - q + k, len(b) - q + k})
	}
	return out
}

package litmusgen

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"smpscope/machine"
	"smpscope/scenarios"
)

// A regression file is a litmus test whose header comment carries
// herd7's final states for each model and what smpscope must do on it:
//
//	herd7 lkmm: Never, 2 states, flags data-race
//	  0:r0=0; x=1;
//	  0:r0=1; x=1;
//	require tso: exact
//	require arm: sound
//	require arm: reach 0:r0=1; x=1;
//
// "exact" asks for the target set exactly (herd7's model for the mode minus
// what LKMM forbids); "sound" for no outcome outside it; "reach S" for the
// outcome S. Every mode is always held to "sound". The test therefore runs
// without herd7; with herd7 present, the stored states are checked against
// a fresh run too.

// Requirement is one "require" line.
type Requirement struct {
	Mode  machine.Mode
	Kind  ReqKind
	State string // for Reach
}

// ReqKind is what a requirement asks of a mode.
type ReqKind uint8

// Requirement kinds; String is the word in the file.
const (
	Exact ReqKind = iota // the target set exactly
	Sound                // no outcome outside the target
	Reach                // the outcome State
)

var reqKindNames = [...]string{Exact: "exact", Sound: "sound", Reach: "reach"}

func (k ReqKind) String() string { return reqKindNames[k] }

// Regression is a parsed regression file.
type Regression struct {
	Name    string
	Src     string
	Herd    map[string]*HerdResult
	Require []Requirement
}

// RegressionSource renders p as a regression file: the header records the
// herd7 results of r (a report on p itself) and the requirements, then
// the Result, Title and Story metadata.
func RegressionSource(p *Program, r *Report, req []Requirement, title string, story []string) string {
	q := p.Clone()
	q.Header = regressionHeader(r, req, title, story)
	return q.Source()
}

// RegressionFromSource is RegressionSource for a test given as source (a
// hand-written one, without a header comment of its own): the header is
// inserted after the "C NAME" line, and NAME is replaced by name.
func RegressionFromSource(name, src string, r *Report, req []Requirement, title string, story []string) string {
	_, rest, _ := strings.Cut(src, "\n")
	var b strings.Builder
	b.WriteString("C " + name + "\n\n(*\n")
	for _, l := range regressionHeader(r, req, title, story) {
		if l == "" {
			b.WriteString(" *\n")
		} else {
			b.WriteString(" * " + l + "\n")
		}
	}
	b.WriteString(" *)\n")
	b.WriteString(rest)
	return b.String()
}

func regressionHeader(r *Report, req []Requirement, title string, story []string) []string {
	h := []string{
		"Result: " + r.Herd["lkmm"].Observation,
		"Title: " + title,
	}
	for i, l := range story {
		if i == 0 {
			l = "Story: " + l
		}
		h = append(h, l)
	}
	h = append(h, "")
	for _, m := range Models {
		hr := r.Herd[m]
		line := fmt.Sprintf("herd7 %s: %s, %d states", m, hr.Observation, len(hr.States))
		if len(hr.Flags) > 0 {
			line += ", flags " + strings.Join(hr.Flags, " ")
		}
		h = append(h, line)
		for _, s := range hr.States {
			h = append(h, "  "+s)
		}
	}
	h = append(h, "")
	for _, rq := range req {
		line := "require " + rq.Mode.String() + ": " + rq.Kind.String()
		if rq.Kind == Reach {
			line += " " + rq.State
		}
		h = append(h, line)
	}
	return h
}

// ParseRegression reads the herd7 results and requirements of a
// regression file's header.
func ParseRegression(name, src string) (*Regression, error) {
	rg := &Regression{Name: name, Src: src, Herd: map[string]*HerdResult{}}
	sc := bufio.NewScanner(strings.NewReader(src))
	var cur *HerdResult
	want := 0
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if cur != nil && want > 0 {
			cur.States = append(cur.States, CanonState(l))
			want--
			continue
		}
		cur = nil
		switch {
		case strings.HasPrefix(l, "herd7 "):
			model, rest, ok := strings.Cut(strings.TrimPrefix(l, "herd7 "), ": ")
			if !ok {
				return nil, fmt.Errorf("%s: bad herd7 line %q", name, l)
			}
			f := strings.Split(rest, ", ")
			if len(f) < 2 {
				return nil, fmt.Errorf("%s: bad herd7 line %q", name, l)
			}
			n, err := strconv.Atoi(strings.TrimSuffix(f[1], " states"))
			if err != nil {
				return nil, fmt.Errorf("%s: bad state count in %q", name, l)
			}
			h := &HerdResult{Model: model, Accepted: true, Observation: f[0]}
			if len(f) > 2 {
				h.Flags = strings.Fields(strings.TrimPrefix(f[2], "flags "))
			}
			rg.Herd[model] = h
			cur, want = h, n
		case strings.HasPrefix(l, "require "):
			word, rest, ok := strings.Cut(strings.TrimPrefix(l, "require "), ": ")
			mode := slices.IndexFunc(bothModes, func(m machine.Mode) bool { return m.String() == word })
			if !ok || mode < 0 {
				return nil, fmt.Errorf("%s: bad require line %q", name, l)
			}
			kw, state, _ := strings.Cut(rest, " ")
			kind := ReqKind(slices.Index(reqKindNames[:], kw))
			switch {
			case kind == Reach:
				state = CanonState(state)
			case kind > Reach: // not a word of reqKindNames
				return nil, fmt.Errorf("%s: bad require line %q", name, l)
			}
			rg.Require = append(rg.Require, Requirement{bothModes[mode], kind, state})
		}
	}
	if want > 0 {
		return nil, fmt.Errorf("%s: %d herd7 states missing", name, want)
	}
	for _, m := range Models {
		if rg.Herd[m] == nil {
			return nil, fmt.Errorf("%s: no herd7 %s results", name, m)
		}
		slices.Sort(rg.Herd[m].States)
	}
	if len(rg.Require) == 0 {
		return nil, fmt.Errorf("%s: no require lines", name)
	}
	return rg, nil
}

// Verify explores the regression test in both modes and returns what
// violates its requirements (empty: it passes).
func (rg *Regression) Verify(o *Oracle) ([]string, *Report, error) {
	c, err := Compile(rg.Name, rg.Src)
	if err != nil {
		return nil, nil, err
	}
	return rg.verify(o, c)
}

func (rg *Regression) verify(o *Oracle, c *scenarios.Compiled) ([]string, *Report, error) {
	r := o.CompareStored(rg.Name, rg.Src, c, rg.Herd)
	if r.Skipped() {
		return nil, r, fmt.Errorf("%s: %s", rg.Name, r.Skip)
	}
	var bad []string
	for _, m := range r.Modes {
		for _, f := range m.Unsound {
			bad = append(bad, fmt.Sprintf("%s mode reaches %s, which %s forbids", m.Mode.Title(), f.State, f.Class))
		}
	}
	for _, rq := range rg.Require {
		m := r.Mode(rq.Mode)
		switch rq.Kind {
		case Exact:
			for _, f := range m.Missing {
				bad = append(bad, fmt.Sprintf("%s mode misses %s, which %s allows", m.Mode.Title(), f.State, m.Model))
			}
		case Reach:
			if !slices.Contains(m.Got, rq.State) {
				bad = append(bad, fmt.Sprintf("%s mode misses %s, which %s allows", m.Mode.Title(), rq.State, m.Model))
			}
		}
	}
	return bad, r, nil
}

// Requirements derives the requirements a regression file records from a
// report: each mode is held to "exact" when its only missing outcomes are
// failures (or none), else to "sound" plus "reach" for each failing
// missing outcome.
func Requirements(r *Report) []Requirement {
	var out []Requirement
	for _, m := range r.Modes {
		var reach []string
		tolerated := false
		for _, f := range m.Missing {
			if failing(f.Class) {
				reach = append(reach, f.State)
			} else {
				tolerated = true
			}
		}
		if !tolerated {
			out = append(out, Requirement{Mode: m.Mode, Kind: Exact})
			continue
		}
		out = append(out, Requirement{Mode: m.Mode, Kind: Sound})
		for _, s := range reach {
			out = append(out, Requirement{Mode: m.Mode, Kind: Reach, State: s})
		}
	}
	return out
}

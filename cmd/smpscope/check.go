package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
)

type checkOptions struct {
	modes     []machine.Mode
	asJSON    bool
	timeout   time.Duration
	maxStates int
	workers   int // goroutines per search: 1 when several searches run at once
}

func parseModes(s string) ([]machine.Mode, error) {
	if s == "both" {
		return []machine.Mode{machine.TSO, machine.ARM}, nil
	}
	m, err := machine.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("--mode: %v (or both)", err)
	}
	return []machine.Mode{m}, nil
}

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts checkOptions
	var mode string
	cmd := &cobra.Command{
		Use:   "check [--mode tso|arm|both] [--json] [--timeout D] [--max-states N] FILE|NAME ...",
		Short: "Explore scenarios exhaustively and print herd7-style verdicts",
		Long: `check explores every reachable state of each scenario (a .litmus file or a
built-in name) and prints, per scenario and mode, the final states, whether
the final condition holds and the Observation line herd7 users know.

Exit status: 0 when everything parsed and explored; 1 when a mode reaches an
outcome the file's "Result: Never" forbids (a soundness failure, which takes
precedence); 2 for usage, parse or limit errors.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.modes, err = parseModes(mode); err != nil {
				return &exitError{2, "smpscope check: " + err.Error()}
			}
			return runCheck(args, opts, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "one JSON object per line, per scenario and mode")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 0, "stop exploring one scenario in one mode after this long (e.g. 10s)")
	cmd.Flags().IntVar(&opts.maxStates, "max-states", 0, "stop exploring one scenario in one mode after this many states (default 20000000)")
	return cmd
}

// checkResult is one scenario explored in one mode.
type checkResult struct {
	arg      string
	compiled *scenarios.Compiled
	mode     machine.Mode
	res      *machine.Result
	verdict  scenarios.Verdict
	err      error
	seconds  float64
}

func (r *checkResult) unsound() bool {
	return r.err == nil && r.compiled.Scenario.Meta.Result == scenarios.Never && r.verdict.Positive > 0
}

func runCheck(args []string, opts checkOptions, stdout, stderr io.Writer) error {
	// A check run is short-lived and its explorations hold little live
	// memory: collect garbage less often (the explorer's own memory limit
	// still bounds each search).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	// Parse everything first: parse errors are reported once per file.
	type job struct {
		idx  int
		arg  string
		cs   *scenarios.Compiled
		mode machine.Mode
		err  error
	}
	var jobs []job
	for _, arg := range args {
		sc, err := loadScenario(arg)
		var cs *scenarios.Compiled
		if err == nil {
			cs, err = sc.Compile()
		}
		for _, m := range opts.modes {
			jobs = append(jobs, job{idx: len(jobs), arg: arg, cs: cs, mode: m, err: err})
			if err != nil {
				break
			}
		}
	}
	results := make([]checkResult, len(jobs))
	if len(jobs) > 1 {
		opts.workers = 1 // the jobs already keep every core busy
	}
	work := make(chan job)
	var wg sync.WaitGroup
	var done sync.Mutex
	finished := 0
	bar := newProgressBar(stderr, len(jobs))
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				results[j.idx] = checkOne(j.arg, j.cs, j.mode, j.err, opts)
				done.Lock()
				finished++
				bar(finished)
				done.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	bar(-1)

	code := 0
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for i := range results {
		r := &results[i]
		if r.err != nil {
			fmt.Fprintln(stderr, errorLine(r))
			if code == 0 {
				code = 2
			}
		}
		if r.unsound() {
			fmt.Fprintf(stderr, "smpscope check: %s: SOUNDNESS: the file says \"Result: Never\" but %s mode reaches the outcome (%d final states)\n", r.compiled.Scenario.Name, r.mode.Title(), r.verdict.Positive)
			code = 1
		}
		if opts.asJSON {
			if err := enc.Encode(jsonResult(r)); err != nil {
				return err
			}
		} else if r.err == nil {
			io.WriteString(stdout, textResult(r))
		}
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

func errorLine(r *checkResult) string {
	msg := r.err.Error()
	if r.compiled != nil {
		return fmt.Sprintf("smpscope check: %s (%s mode): %s", r.arg, r.mode, msg)
	}
	return "smpscope check: " + msg
}

func checkOne(arg string, cs *scenarios.Compiled, mode machine.Mode, err error, opts checkOptions) checkResult {
	r := checkResult{arg: arg, compiled: cs, mode: mode, err: err}
	if err != nil {
		return r
	}
	start := time.Now()
	m, err := machine.New(cs.Program, mode)
	if err != nil {
		r.err = err
		return r
	}
	r.res = machine.Explore(m, machine.Options{Timeout: opts.timeout, MaxStates: opts.maxStates, NoWitnesses: true, Workers: opts.workers})
	r.seconds = time.Since(start).Seconds()
	if !r.res.Complete {
		r.err = fmt.Errorf("%s", r.res.Summary())
	}
	var outs []machine.Outcome
	var counts []int
	for _, o := range r.res.Outcomes {
		outs = append(outs, o.Outcome)
		counts = append(counts, o.States)
	}
	r.verdict = cs.Verdict(outs, counts)
	return r
}

func outcomesOf(r *checkResult) ([]machine.Outcome, []int) {
	var outs []machine.Outcome
	var counts []int
	for _, o := range r.res.Outcomes {
		outs = append(outs, o.Outcome)
		counts = append(counts, o.States)
	}
	return outs, counts
}

// textResult is herd7's report plus the mode, the states explored, any
// deadlocks, the expected LKMM verdict and the time.
func textResult(r *checkResult) string {
	outs, counts := outcomesOf(r)
	var b strings.Builder
	b.WriteString(r.compiled.HerdReport(outs, counts))
	name := r.compiled.Scenario.Name
	fmt.Fprintf(&b, "Mode %s %s\n", name, r.mode)
	fmt.Fprintf(&b, "Explored %s %d states\n", name, r.res.States)
	if n := r.res.DeadlockStates; n > 0 {
		fmt.Fprintf(&b, "Deadlocks %s %d (%s)\n", name, n, strings.Join(r.res.Deadlocks[0].Reasons, "; "))
	}
	if exp := r.compiled.Scenario.Meta.Result; exp != "" {
		fmt.Fprintf(&b, "Expected %s %s (LKMM)\n", name, exp)
	}
	fmt.Fprintf(&b, "Time %s %.4f\n\n", name, r.seconds)
	return b.String()
}

type jsonOutcome struct {
	Values    map[string]any `json:"values"`
	Count     int            `json:"count"`
	Satisfies bool           `json:"satisfies"`
}

type jsonCheck struct {
	Name     string        `json:"name"`
	File     string        `json:"file"`
	Mode     string        `json:"mode"`
	Verdict  string        `json:"verdict"`
	Positive int           `json:"positive"`
	Negative int           `json:"negative"`
	States   int           `json:"states"`
	Outcomes []jsonOutcome `json:"outcomes"`
	Expected string        `json:"expected"`
	Seconds  float64       `json:"seconds"`
	Error    string        `json:"error"`
}

func jsonResult(r *checkResult) jsonCheck {
	j := jsonCheck{Name: r.arg, File: r.arg, Mode: r.mode.String(), Outcomes: []jsonOutcome{}, Seconds: r.seconds}
	if r.compiled != nil {
		sc := r.compiled.Scenario
		j.Name = sc.Name
		if sc.File != "" {
			j.File = sc.File
		}
		j.Expected = string(sc.Meta.Result)
	}
	if r.err != nil {
		j.Error = r.err.Error()
	}
	if r.res == nil {
		return j
	}
	j.States = r.res.States
	if r.err == nil {
		j.Verdict = string(r.verdict.Observation)
	}
	j.Positive, j.Negative = r.verdict.Positive, r.verdict.Negative
	p := r.compiled.Program
	keep := r.compiled.Shown()
	for _, o := range r.res.Outcomes {
		if !r.compiled.Filtered(o.Outcome) {
			continue
		}
		vals := map[string]any{}
		for t, regs := range o.Outcome.Regs {
			for reg, v := range regs {
				if keep(t, machine.Reg(reg), 0, false) {
					vals[fmt.Sprintf("%d:%s", t, p.Threads[t].Regs[reg])] = jsonValue(p, v)
				}
			}
		}
		for l, v := range o.Outcome.Mem {
			if keep(0, 0, machine.Loc(l), true) {
				vals[p.Locs[l]] = jsonValue(p, v)
			}
		}
		j.Outcomes = append(j.Outcomes, jsonOutcome{Values: vals, Count: o.States, Satisfies: r.compiled.Satisfies(o.Outcome)})
	}
	// Outcomes that look alike once projected are merged, as in herd's list.
	j.Outcomes = mergeOutcomes(j.Outcomes)
	return j
}

func jsonValue(p *machine.Program, v machine.Value) any {
	if _, ok := v.AsLoc(); ok {
		return p.FormatValue(v)
	}
	return int64(v)
}

func mergeOutcomes(in []jsonOutcome) []jsonOutcome {
	idx := map[string]int{}
	var out []jsonOutcome
	for _, o := range in {
		k, _ := json.Marshal(o.Values)
		if i, ok := idx[string(k)]; ok {
			out[i].Count += o.Count
			continue
		}
		idx[string(k)] = len(out)
		out = append(out, o)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := json.Marshal(out[i].Values)
		b, _ := json.Marshal(out[j].Values)
		return string(a) < string(b)
	})
	if out == nil {
		out = []jsonOutcome{}
	}
	return out
}

// newProgressBar returns a function that redraws a progress bar on w when w
// is a terminal (and does nothing otherwise); call it with -1 to clear.
func newProgressBar(w io.Writer, total int) func(done int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) || total < 2 {
		return func(int) {}
	}
	bar := progress.New(progress.WithDefaultGradient(), progress.WithWidth(40))
	return func(done int) {
		if done < 0 {
			fmt.Fprint(w, "\r\x1b[2K")
			return
		}
		fmt.Fprintf(w, "\r%s %d/%d", bar.ViewAs(float64(done)/float64(total)), done, total)
	}
}

// loadScenario reads arg as a litmus file when one exists at that path
// (without parsing the built-in library, which check over many files would
// pay for at every start), else as a built-in name.
func loadScenario(arg string) (*scenarios.Scenario, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		src, err := os.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		return scenarios.Parse(arg, src)
	}
	return scenarios.Load(arg)
}

// Package words says in English what the machine's facts mean: the one
// place the machine's behaviour is put into words. The machine states
// facts in types (an [machine.Event] for each step, a [machine.Wait] for
// each blocked CPU, a [machine.Fault]); words renders them, for the UI,
// the trace reports, the trace files' step comments and the error
// messages of the trace reader alike.
//
//   - Event: what a step did, one statement per fact, each fact stated
//     once, in plain sentences (a stale read says STALE once).
//   - Step: an enabled step as a choice ("P1: commit store x=1 from its
//     store buffer"), before it is taken.
//   - Wait: what a blocked CPU waits for, at two levels of detail: Full
//     names the entries, invalidations, CPUs and sections; Brief leaves
//     them out, for narrow panes.
//   - Fault and Deadlock: why an execution ended without an outcome.
//   - Stop and Summary: why a search stopped early ([machine.Stop]),
//     and a search in one line.
//
// It sits below package scenarios, not in views, because scenarios words
// machine facts too (the comments of a trace file, the steps an error
// lists, the waits of a closest attempt) and may not import views. The
// analyses' own prose (the closest attempt's "because", the necessity
// verdicts) stays with the analyses in scenarios: words knows nothing
// above the machine.
package words

// Package scenarios is smpscope's application layer between the machine
// and the front-ends (the command line and the UI): everything both need
// to know about a scenario lives here once.
//
// The litmus format: the language itself, its tree, parser, printer and
// walker, is the subpackage syntax; this package says what a test means: Parse
// reads a test of the kernel primitives smpscope supports (prims.go, the
// one table of them, which also tells syntax.Parse what a call may be:
// KernelFuncs), and Compile turns the tree into a machine program with
// its clauses resolved. The built-in library (Library, Families, Builtin)
// is embedded with go:embed.
//
// On top of it:
//
//   - Spec is a scenario as the front-ends see it: name, family, variant,
//     story, program, the typed final clause (Final, with Asked and the
//     one counting rule, Verdict), the filter, the registers and
//     locations outcomes name, and the expected LKMM verdict. NewSpec
//     builds one from a compiled test; programs built in Go fill one in.
//   - Edit is a what-if change of an ordering annotation ("P1:2=acquire",
//     "P0:1+mb", "P0:2-wmb"): Spec.Edited applies edits to the litmus
//     tree (the compiler records which statement and call made each
//     instruction) and compiles the edited source again; Orderings,
//     BarrierAfter and their Edit helpers say what fits an instruction;
//     SourceDiff, ChangedInstrs and RemapSteps say what an edit changed;
//     WriteNewEdited saves the edited test. Edits are the one way an
//     annotation changes: Weakenings lists the edit that weakens each
//     annotation (for Necessity), EditSet applies a set of edits named in
//     one program's numbering and gives the --edit list that replays it.
//     Key and ProgramKey identify specs and programs by content.
//   - Resolve is the one rule that turns an argument into a Spec: "-" is
//     standard input, an existing file wins, anything else is a built-in
//     name. Standard input and other files may be mails: FindLitmus
//     (mail.go) finds the tests they hold, quoted, in patches, among
//     prose, keeping the mail's line numbers; "-#2" takes one.
//   - Execution is one run of a spec in a mode, replayed by
//     machine.Replay: the shortest witness (WitnessExecution), or the
//     closest attempt when the outcome is unreachable (WitnessOrAttempt;
//     Execution.Attempt says how near it came and why), seeded
//     random steps from the one stream every front-end draws from
//     (RandomExecution, Random), a trace file (ReplayTraceFile) or a
//     history (NewExecution).
//   - Trace is the trace file format, read (ParseTrace, the one reader of
//     step IDs) and written (Execution.Trace, Format, WriteNewTrace). A
//     trace carries its scenario's litmus source; Execution.ReplayBlock
//     is its shortest form, which ends the text a mail carries, and
//     ReplayTraceFile finds it in a mail (traceText) and reads a source:
//     line only as a litmus file beside the trace (traceSource).
//   - The analyses: ExploreAll is the one pool every exploration runs on
//     (check, compare, why, fix, the UI's panels); Compare, CompareFamily,
//     CompareEdits and CompareLabeled put variants side by side in both
//     modes (a family's, a scenario's what-ifs, any scenarios); Necessity
//     says which ordering annotations are needed (each weakened by an
//     edit); FixSearch (fix.go) finds the minimal sets of strengthenings
//     that make the asked outcome unreachable.
//
// The package knows no terminal: package views words and draws its
// results. The machine's facts (events, waits, faults) are put into words
// by the subpackage words, which this package uses for a trace file's step
// comments, the steps its errors list and a closest attempt's waits.
package scenarios

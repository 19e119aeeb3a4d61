// Package syntax is the litmus language: the Linux-kernel C litmus
// format that herd7 and tools/memory-model use (../FORMAT.md), read and
// printed, and nothing of what a test means.
//
//   - Parse reads a test into its tree (*Scenario: the initial state,
//     the threads' statements and expressions, the clauses, every comment
//     where it stood, and the Metadata its leading comment gives). It
//     knows C, not the kernel: the functions a test may call, and which
//     of their arguments must be a dereference, come from the caller as
//     Funcs (package scenarios has the primitives' table). FindFinal
//     parses only up to the final clause, for a test quoted in a mail.
//     Input is bounded (MaxSourceSize, MaxDepth, MaxOperators).
//   - Format prints a tree back as a test, comments kept, so that an
//     edited tree saves as the file it came from with the edit made;
//     FormatExpr, FormatCond and StmtText print parts of it.
//   - Inspect walks a tree (Node: every type of it), the one traversal
//     the packages above use instead of type switches of their own.
//   - Position and Error: every error names file:line:col. Errorf is the
//     one way an error is made (a quoted name is cut by QuoteShort, a
//     first line by MaxMessageLine); package scenarios makes its compile
//     and trace errors with it too.
//   - Printable and Brief are the one rule for showing input on a
//     terminal: every front-end passes the text it prints from a file,
//     a trace or the command line through them.
//
// The subpackage syntaxtest holds what the tests of this package and of
// package scenarios share (round trips, tree dumps).
package syntax

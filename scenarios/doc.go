// Package scenarios reads and writes the Linux-kernel C litmus format that
// herd7 and tools/memory-model use, compiles litmus tests into
// machine programs, evaluates their final conditions on outcomes, and holds
// smpscope's built-in library of scenarios taken from real kernel patches
// (embedded with go:embed).
package scenarios

package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kernelDir is the kernel's litmus tests (../shared/litmus/kernel).
const kernelDir = "../../../shared/litmus/kernel"

// BenchmarkKernelSuite runs check on the kernel's litmus tests, both
// modes, in this process: the batch cost without process start-up.
//
//	go test ./cmd/smpscope -run '^$' -bench KernelSuite -benchmem
func BenchmarkKernelSuite(b *testing.B) {
	files, _ := filepath.Glob(kernelDir + "/*.litmus")
	if len(files) == 0 {
		b.Skip("no corpus")
	}
	for i := 0; i < b.N; i++ {
		var out strings.Builder
		if code := run(append([]string{"check"}, files...), strings.NewReader(""), &out, io.Discard); code != 0 {
			b.Fatal(code, out.String())
		}
	}
}

// BenchmarkBatchTiny is what one small exploration costs in a batch
// (issue 24's target: a test of at most 20 states in at most 100 µs): check
// of the kernel's CoRR (at most 10 states in each mode) named 32 times, in
// one mode, in this process. ns/exploration is the whole command's time per
// file: reading, parsing, compiling, exploring and printing its verdict.
//
//	go test ./cmd/smpscope -run '^$' -bench BatchTiny -benchmem
func BenchmarkBatchTiny(b *testing.B) {
	file := kernelDir + "/CoRR+poonceonce+Once.litmus"
	if _, err := os.Stat(file); err != nil {
		b.Skip("no corpus")
	}
	const n = 32
	for _, mode := range []string{"tso", "arm"} {
		b.Run(mode, func(b *testing.B) {
			args := append([]string{"check", "--mode", mode}, slices.Repeat([]string{file}, n)...)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var out strings.Builder
				if code := run(args, strings.NewReader(""), &out, io.Discard); code != 0 {
					b.Fatal(code, out.String())
				}
				if got := strings.Count(out.String(), "\nObservation CoRR+poonceonce+Once Never 0 3\n"); got != n {
					b.Fatalf("%d of %d verdicts:\n%s", got, n, out.String())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/exploration")
		})
	}
}

// BenchmarkCommandLine is the program's own start-up cost past the Go
// runtime's and the packages' initialisation: --version run, in this
// process (the root command alone is built for it: newRootCmdFor).
//
//	go test ./cmd/smpscope -run '^$' -bench CommandLine -benchmem
func BenchmarkCommandLine(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var out strings.Builder
		if code := run([]string{"--version"}, strings.NewReader(""), &out, io.Discard); code != 0 || !strings.HasPrefix(out.String(), "smpscope ") {
			b.Fatal(code, out.String())
		}
	}
}

// BenchmarkCommandTree is building the command tree a command line needs
// (newRootCmdFor) and finding its command: check's alone, as every check
// run builds it, against the whole tree (help, the UI, a misspelt name).
//
//	go test ./cmd/smpscope -run '^$' -bench CommandTree -benchmem
func BenchmarkCommandTree(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{{"check", []string{"check", "x.litmus"}}, {"whole", nil}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				root := newRootCmdFor(c.args, strings.NewReader(""), io.Discard, io.Discard)
				if _, _, err := root.Find([]string{"check", "x.litmus"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

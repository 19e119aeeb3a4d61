package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkKernelSuite runs check on the kernel's 33 litmus tests, both
// modes, in this process: the batch cost without process start-up.
//
//	go test ./cmd/smpscope -run '^$' -bench KernelSuite -benchmem
func BenchmarkKernelSuite(b *testing.B) {
	files, _ := filepath.Glob("../../../shared/litmus/kernel/*.litmus")
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

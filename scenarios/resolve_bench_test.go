package scenarios

import (
	"path/filepath"
	"testing"
)

// BenchmarkResolveKernel is what check pays per file before exploring it
// (issue 24's fixed costs): Resolve of each of the kernel's litmus tests —
// stat, read, parse, compile — on one goroutine. ns/file is per file.
//
//	go test ./scenarios -run '^$' -bench ResolveKernel -benchmem -cpu 1
func BenchmarkResolveKernel(b *testing.B) {
	files, _ := filepath.Glob(corpusDir + "/kernel/*.litmus")
	if len(files) == 0 {
		b.Skip("no corpus")
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := Resolve(f, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
}

package machine_test

import (
	"fmt"
	"os"
	"testing"

	"smpscope/machine"
)

func TestDebugSet(t *testing.T) {
	path := os.Getenv("SPEED2_FILE")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	c := compile(t, "x", src)
	mode := machine.TSO
	if os.Getenv("SPEED2_MODE") == "arm" {
		mode = machine.ARM
	}
	m := machine.MustNew(c.Program, mode)
	n := 0
	machine.SetTrace(func(s string) {
		n++
		if n%97 == 0 && n < 20000 {
			fmt.Println(s)
		}
	})
	defer machine.SetTrace(nil)
	r := machine.Explore(m, machine.Options{Workers: 1})
	fmt.Println(r.Summary())
}

package scenarios

import (
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// FuzzParseTrace checks that ParseTrace never panics or hangs on any
// input (a trace arrives by mail), that every error is an Error with a
// short first line, that nothing it accepts could reach a terminal as an
// escape sequence, that what it accepts formats and re-parses to the
// same trace, and that replaying it on the built-in scenario it names
// never panics.
func FuzzParseTrace(f *testing.F) {
	head := "smpscope trace 1\nscenario: mp+once\nvariant: once\nmode: arm\n"
	for _, s := range []string{
		head + "# note\n\nP0 exec       # P0: execute WRITE_ONCE(*x, 1)\nP0 commit #0\nP1 early #1\nP1 inv y\nP0 qs\n",
		"# lead\r\nsmpscope trace 1\r\nscenario:  sb+once \r\nsource: ./d/sb.litmus\r\nmode: tso\r\n\tP0   exec\t#\r\n",
		head + "P9 exec\nP0 commit 3\nP0 early #99\nP1 inv\nP1 qs x\n",
		head + "P0 exec # \x1b]2;t\a\n",
		"smpscope trace 2\n", "smpscope trace x\n", "", "\xff",
		"smpscope trace 1\nscenario:\nmode: power\ncolour: red\n",
	} {
		f.Add([]byte(s))
	}
	for _, name := range []string{"mp+once", "sb+mb", "iriw+rmb", "rcu-free+sync", "folio-lock-waiters+atomic"} {
		sp, err := BuiltinSpec(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			if ex, err := RandomExecution(sp, mode, 3); err == nil {
				f.Add([]byte(ex.Trace(".").Format()))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := ParseTrace("fuzz", src)
		if err != nil {
			e, ok := err.(syntax.Error)
			if !ok {
				t.Fatalf("error %v is a %T, not an Error", err, err)
			}
			if first, _, _ := strings.Cut(e.Msg, "\n"); len(first) > syntax.MaxMessageLine+len("…") {
				t.Fatalf("a first line of %d bytes: %.200s", len(first), first)
			}
			return
		}
		out := tr.Format()
		if syntax.Printable(out) != out {
			t.Fatalf("accepted text a terminal would not show as it is:\n%q", out)
		}
		tr2, err := ParseTrace("fuzz", []byte(out))
		if err != nil {
			t.Fatalf("formatted trace does not parse: %v\n%s", err, out)
		}
		if out2 := tr2.Format(); out2 != out {
			t.Fatalf("Format not idempotent:\n%s\n---\n%s", out, out2)
		}
		if len(tr2.Steps) != len(tr.Steps) || tr2.Scenario != tr.Scenario || tr2.Mode != tr.Mode || tr2.Source != tr.Source {
			t.Fatalf("round trip changed the trace:\n%s", out)
		}
		if sp, err := BuiltinSpec(tr.Scenario); err == nil {
			if m, err := sp.Machine(tr.Mode); err == nil {
				states, events, err := tr.Replay(m)
				if err == nil && (len(events) != len(tr.Steps) || len(states) != len(events)+1) {
					t.Fatalf("replayed %d of %d steps without an error", len(events), len(tr.Steps))
				}
			}
		}
	})
}

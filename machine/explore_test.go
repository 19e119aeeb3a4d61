package machine

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestExploreLimitsGivePartialResults(t *testing.T) {
	m := MustNew(ring(4, nil), ARM)
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"states", Options{MaxStates: 100}, "state limit (100)"},
		{"memory", Options{MaxMemory: 64 << 10}, "memory limit"},
		{"time", Options{Timeout: time.Nanosecond}, "time limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Explore(m, c.opts)
			if res.Complete || !strings.Contains(res.StopReason, c.want) {
				t.Fatalf("complete=%v reason=%q, want %q", res.Complete, res.StopReason, c.want)
			}
			if !strings.HasPrefix(res.Summary(), "stopped after ") {
				t.Fatalf("summary %q", res.Summary())
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := Explore(m, Options{Context: ctx}); res.Complete || res.StopReason != "cancelled" {
		t.Fatalf("cancelled search: complete=%v reason=%q", res.Complete, res.StopReason)
	}
}

// The search is deterministic whatever the scheduling of its workers: the
// same program gives the same outcomes, counts and witnesses.
func TestExploreDeterministic(t *testing.T) {
	m := MustNew(ring(4, nil), TSO)
	a, b := Explore(m, Options{}), Explore(m, Options{})
	if a.States != b.States || len(a.Outcomes) != len(b.Outcomes) {
		t.Fatalf("states %d vs %d, outcomes %d vs %d", a.States, b.States, len(a.Outcomes), len(b.Outcomes))
	}
	for i := range a.Outcomes {
		if a.Outcomes[i].States != b.Outcomes[i].States || m.formatSteps(a.Outcomes[i].Witness) != m.formatSteps(b.Outcomes[i].Witness) {
			t.Fatalf("outcome %d differs between runs", i)
		}
	}
}

func (m *Machine) formatSteps(steps []Step) string {
	var ids []string
	for _, s := range steps {
		ids = append(ids, m.ID(s))
	}
	return strings.Join(ids, ", ")
}

func TestNoWitnessesSameOutcomes(t *testing.T) {
	m := MustNew(ring(3, nil), ARM)
	a, b := Explore(m, Options{}), Explore(m, Options{NoWitnesses: true})
	if len(a.Outcomes) != len(b.Outcomes) || a.States != b.States {
		t.Fatalf("outcomes %d vs %d, states %d vs %d", len(a.Outcomes), len(b.Outcomes), a.States, b.States)
	}
	for i := range b.Outcomes {
		if b.Outcomes[i].Witness != nil || len(a.Outcomes[i].Witness) == 0 {
			t.Fatalf("outcome %d: witnesses %v / %v", i, a.Outcomes[i].Witness, b.Outcomes[i].Witness)
		}
	}
}

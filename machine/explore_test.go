package machine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestExploreLimitsGivePartialResults(t *testing.T) {
	m := MustNew(ring(4, nil), ARM)
	cases := []struct {
		name string
		opts Options
		want Stop
	}{
		{"states", Options{MaxStates: 100}, Stop{Kind: StopStates, MaxStates: 100}},
		{"memory", Options{MaxMemory: 64 << 10}, Stop{Kind: StopMemory, MaxMemory: 64 << 10}},
		{"time", Options{Timeout: time.Nanosecond}, Stop{Kind: StopTime, Timeout: time.Nanosecond}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Explore(m, c.opts)
			if res.Complete || res.Stop != c.want {
				t.Fatalf("complete=%v stop=%+v, want %+v", res.Complete, res.Stop, c.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := Explore(m, Options{Context: ctx}); res.Complete || res.Stop != (Stop{Kind: StopCancelled}) {
		t.Fatalf("cancelled search: complete=%v stop=%+v", res.Complete, res.Stop)
	}
	// The caller's cause is kept (check cancels with "interrupted").
	why := errors.New("interrupted")
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(why)
	if res := Explore(m, Options{Context: ctx}); res.Complete || res.Stop != (Stop{Kind: StopCancelled, Cause: why}) {
		t.Fatalf("search cancelled with a cause: complete=%v stop=%+v", res.Complete, res.Stop)
	}
}

// summary is what a test failure says of a search: the words people
// read are scenarios/words.Summary's, which machine may not import.
func summary(r *Result) string {
	if r.Complete {
		return fmt.Sprintf("explored %d states", r.States)
	}
	return fmt.Sprintf("stopped after %d states: %+v", r.States, r.Stop)
}

// The search is deterministic whatever the scheduling of its workers and
// however many there are (they take a chunk's states as they become
// free): the same program gives the same outcomes, counts and witnesses.
func TestExploreDeterministic(t *testing.T) {
	for _, mode := range []Mode{TSO, ARM} {
		m := MustNew(ring(4, nil), mode)
		a := Explore(m, Options{Workers: 1})
		for _, workers := range []int{2, 3, 8} {
			b := Explore(m, Options{Workers: workers})
			if a.States != b.States || len(a.Outcomes) != len(b.Outcomes) {
				t.Fatalf("%s, %d workers: states %d vs %d, outcomes %d vs %d", mode, workers, a.States, b.States, len(a.Outcomes), len(b.Outcomes))
			}
			for i := range a.Outcomes {
				if a.Outcomes[i].States != b.Outcomes[i].States || m.formatSteps(a.Outcomes[i].Witness) != m.formatSteps(b.Outcomes[i].Witness) {
					t.Fatalf("%s, %d workers: outcome %d differs from one worker's", mode, workers, i)
				}
			}
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

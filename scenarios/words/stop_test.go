package words_test

import (
	"errors"
	"testing"
	"time"

	"smpscope/machine"
	"smpscope/scenarios/words"
)

// Every way a search stops has its words, and a caller's cause is said
// as the caller said it (check's "interrupted").
func TestStopWords(t *testing.T) {
	cases := []struct {
		stop machine.Stop
		want string
	}{
		{machine.Stop{Kind: machine.StopStates, MaxStates: 100}, "state limit (100)"},
		{machine.Stop{Kind: machine.StopTime, Timeout: time.Minute}, "time limit (1m0s)"},
		{machine.Stop{Kind: machine.StopTime}, "time limit"},
		{machine.Stop{Kind: machine.StopMemory, MaxMemory: 768 << 20}, "memory limit (768 MiB)"},
		{machine.Stop{Kind: machine.StopCancelled}, "cancelled"},
		{machine.Stop{Kind: machine.StopCancelled, Cause: errors.New("interrupted")}, "interrupted"},
		{machine.Stop{}, ""},
	}
	for _, c := range cases {
		if got := words.Stop(c.stop); got != c.want {
			t.Errorf("%+v: %q, want %q", c.stop, got, c.want)
		}
	}
	r := &machine.Result{States: 1, Stop: machine.Stop{Kind: machine.StopStates, MaxStates: 1}}
	if got, want := words.Summary(r), "stopped after 1 state: state limit (1)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	r = &machine.Result{States: 12, Complete: true, Elapsed: 3 * time.Millisecond}
	if got, want := words.Summary(r), "explored 12 states in 3ms"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

package words

import (
	"fmt"
	"time"

	"smpscope/machine"
)

// Stop says why a search stopped early: "state limit (20000000)",
// "time limit (1m0s)", "memory limit (768 MiB)", "cancelled", or the
// cause the caller cancelled with ("interrupted").
func Stop(s machine.Stop) string {
	switch s.Kind {
	case machine.StopStates:
		return fmt.Sprintf("state limit (%d)", s.MaxStates)
	case machine.StopTime:
		if s.Timeout > 0 {
			return fmt.Sprintf("time limit (%v)", s.Timeout)
		}
		return "time limit"
	case machine.StopMemory:
		return fmt.Sprintf("memory limit (%d MiB)", s.MaxMemory>>20)
	case machine.StopCancelled:
		if s.Cause != nil {
			return s.Cause.Error()
		}
		return "cancelled"
	}
	return ""
}

// Summary is a one-line description of a search, e.g. "explored 1234
// states in 3ms" or "stopped after 20000000 states: state limit
// (20000000)".
func Summary(r *machine.Result) string {
	states := fmt.Sprintf("%d states", r.States)
	if r.States == 1 {
		states = "1 state"
	}
	if !r.Complete {
		return fmt.Sprintf("stopped after %s: %s", states, Stop(r.Stop))
	}
	return fmt.Sprintf("explored %s in %v", states, r.Elapsed.Round(time.Microsecond))
}

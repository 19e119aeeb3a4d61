package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"smpscope/machine"
)

// limitFlags are the search limits of every command that explores (check,
// compare, why, and trace and record for the witness): one set of flags,
// checked the same way, so that a limit means the same everywhere. A
// search a limit stops is a partial result: its verdict is unknown, and
// the command exits with status 2 saying where it stopped.
type limitFlags struct {
	timeout   time.Duration
	maxStates int
	maxMemory string
}

// minMemory is the smallest --max-memory that makes sense: below it no
// search gets anywhere.
const minMemory = 1 << 20

func (l *limitFlags) add(f *pflag.FlagSet, search string) {
	f.DurationVar(&l.timeout, "timeout", 0, "stop "+search+" after this long, e.g. 10s (default: no time limit)")
	f.IntVar(&l.maxStates, "max-states", 0, "stop "+search+" after this many distinct states (default 20000000)")
	f.StringVar(&l.maxMemory, "max-memory", "", "keep the whole process within about this much memory, e.g. 512MiB or 2GiB, stopping the searches that would pass it (default 2GiB)")
}

// options checks the limits given and returns them as explorer options;
// a nonsense value (a negative or zero time, state count or size) is a
// usage error naming the flag.
func (l limitFlags) options(who string, f *pflag.FlagSet) (machine.Options, error) {
	var o machine.Options
	if f.Changed("timeout") {
		if l.timeout <= 0 {
			return o, usageErr("%s: --timeout %v: want a positive duration, e.g. 10s", who, l.timeout)
		}
		o.Timeout = l.timeout
	}
	if f.Changed("max-states") {
		if l.maxStates <= 0 {
			return o, usageErr("%s: --max-states %d: want a positive number of states", who, l.maxStates)
		}
		o.MaxStates = l.maxStates
	}
	limit := int64(defaultMaxMemory)
	if f.Changed("max-memory") {
		n, err := parseBytes(l.maxMemory)
		if err != nil {
			return o, usageErr("%s: --max-memory %q: %v", who, l.maxMemory, err)
		}
		limit = n
	}
	o.Budget = processBudget(limit)
	return o, nil
}

// processBudget is the one memory budget of a command: every exploration
// it runs shares it (Options.Budget), and the Go runtime is told to keep
// the heap under it too, so that the whole process stays within limit
// (issue 23, item 4: built here and passed on, not process-global state;
// run puts the runtime's limit back when the command ends).
func processBudget(limit int64) *machine.Budget {
	debug.SetMemoryLimit(machine.RuntimeLimit(limit))
	return machine.NewProcessBudget(limit)
}

// byteUnits are the suffixes parseBytes knows; all are powers of two, as
// the explorer's accounting is.
var byteUnits = []struct {
	suffix string
	scale  int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// parseBytes reads a size such as "512MiB", "2G" or "1048576" (bytes).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	scale := int64(1)
	for _, u := range byteUnits {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, scale = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("want a size such as 512MiB or 2GiB")
	case n <= 0:
		return 0, fmt.Errorf("want a positive size, e.g. 512MiB")
	case n > (1<<62)/scale:
		return 0, fmt.Errorf("too large")
	case n*scale < minMemory:
		return 0, fmt.Errorf("at least 1MiB")
	}
	return n * scale, nil
}

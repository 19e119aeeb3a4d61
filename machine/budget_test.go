package machine

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// The state limit is exact: a search stopped by it expanded that many
// states, not a chunk more.
func TestStateLimitIsExact(t *testing.T) {
	m := MustNew(ring(5, nil), ARM)
	for _, n := range []int{1, 100, 1000, 4097} {
		res := Explore(m, Options{MaxStates: n, off: redOutRegs}) // which takes the ring below 4097
		if res.Complete || res.States != n {
			t.Errorf("MaxStates %d: complete=%v after %d states", n, res.Complete, res.States)
		}
	}
}

// A limit in the last of several chunks is no verdict either (issue 22,
// item 1): the chunk's states past the limit are dropped from the queue,
// and the search was once called complete when nothing else was queued.
func TestLimitInLastChunkIsNoVerdict(t *testing.T) {
	// Without symmetry, chains and outcome registers, which would take
	// the ring below two chunks.
	const off = redSymmetry | redChain | redOutRegs
	m := MustNew(ring(4, nil), TSO)
	full := Explore(m, Options{off: off})
	if !full.Complete || full.States <= expandChunk {
		t.Fatalf("want a complete search of more than one chunk: %s", summary(full))
	}
	limits := []int{expandChunk - 1, expandChunk, expandChunk + 1, (expandChunk + full.States) / 2}
	for n := full.States - 12; n <= full.States+1; n++ {
		limits = append(limits, n)
	}
	for _, n := range limits {
		res := Explore(m, Options{MaxStates: n, off: off})
		switch {
		case n < full.States && res.Complete:
			t.Errorf("MaxStates %d of %d: complete after %d states", n, full.States, res.States)
		case n >= full.States && (!res.Complete || res.States != full.States || len(res.Outcomes) != len(full.Outcomes)):
			t.Errorf("MaxStates %d of %d: %s, %d outcomes of %d", n, full.States, summary(res), len(res.Outcomes), len(full.Outcomes))
		}
	}
}

// Searches sharing a budget stop when together they would pass it, and
// give their share back when they end.
func TestBudgetIsShared(t *testing.T) {
	const limit = 12 << 20 // small: how much each search gets is not the point, their sum is
	b := NewBudget(limit)
	m := MustNew(ring(6, nil), ARM)
	// Without outcome registers left out, which take the ring under the
	// budget.
	alone := Explore(m, Options{Budget: NewBudget(limit), Workers: 1, off: redOutRegs})
	var wg sync.WaitGroup
	results := make([]*Result, 3)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = Explore(m, Options{Budget: b, Workers: 1, off: redOutRegs})
		}(i)
	}
	wg.Wait()
	fewest := alone.States
	for _, r := range results {
		if r.Complete || r.Stop.Kind != StopMemory {
			t.Fatalf("a search sharing the budget ended with %+v (complete %v)", r.Stop, r.Complete)
		}
		fewest = min(fewest, r.States)
	}
	if b.Peak() > limit {
		t.Errorf("the searches held %d bytes together at their peak, over the %d budget", b.Peak(), limit)
	}
	if fewest >= alone.States {
		t.Errorf("a search alone in the budget got %d states, no more than each sharing it (fewest %d)", alone.States, fewest)
	}
	if b.Used() != 0 {
		t.Errorf("%d bytes still charged after the searches ended", b.Used())
	}
}

// The budget bounds the process: a search of a large program under a
// memory limit stops with a clear message before the process's real peak
// RSS passes the limit. The search runs in a child process (this test
// binary again) so that nothing else shares its RSS.
func TestPeakRSSStaysUnderLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process exploring until its memory limit")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: cannot read the peak RSS")
	}
	const limit = 48 << 20
	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$")
	cmd.Env = append(os.Environ(), "SMPSCOPE_RSS_CHILD="+strconv.Itoa(limit))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var states, hwm int64
	var reason string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "rss-child ") {
			fmt.Sscanf(line, "rss-child states=%d hwm=%d", &states, &hwm)
			reason = line[strings.Index(line, "reason=")+len("reason="):]
		}
	}
	if hwm == 0 {
		t.Fatalf("no report from the child:\n%s", out)
	}
	t.Logf("%d states, stopped by %q, peak RSS %d MiB (limit %d MiB)", states, reason, hwm>>20, limit>>20)
	if reason != StopMemory.String() {
		t.Fatalf("the child's search was not stopped by the memory limit: %q", reason)
	}
	if hwm > limit {
		t.Errorf("peak RSS %d bytes passed the %d limit", hwm, limit)
	}
}

// TestRSSChild is the child of TestPeakRSSStaysUnderLimit.
func TestRSSChild(t *testing.T) {
	v := os.Getenv("SMPSCOPE_RSS_CHILD")
	if v == "" {
		t.Skip("only run as the child of TestPeakRSSStaysUnderLimit")
	}
	limit, _ := strconv.ParseInt(v, 10, 64)
	debug.SetMemoryLimit(RuntimeLimit(limit))
	// (The 7-CPU ring fits in 48 MiB since phase two of outcome
	// registers drops the search's tuples.)
	m := MustNew(ring(8, nil), ARM)
	res := Explore(m, Options{NoWitnesses: true, Budget: NewProcessBudget(limit)})
	fmt.Printf("rss-child states=%d hwm=%d reason=%s\n", res.States, peakRSS(), res.Stop.Kind)
	debug.FreeOSMemory()
}

// peakRSS reads the process's peak resident set (VmHWM) in bytes.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// The call for large explorations comes once, when the explorations on
// the budget first hold that much, and not before.
func TestBudgetOnLarge(t *testing.T) {
	var calls, early int
	var mu sync.Mutex
	m := MustNew(ring(4, nil), TSO)
	b := NewProcessBudget(1 << 30)
	b.OnLarge(1<<40, func() { mu.Lock(); early++; mu.Unlock() })
	Explore(m, Options{Workers: 1, Budget: b})
	b.OnLarge(1, func() { mu.Lock(); calls++; mu.Unlock() })
	Explore(m, Options{Workers: 1, Budget: b})
	Explore(m, Options{Workers: 1, Budget: b})
	Explore(m, Options{Workers: 1}) // another budget
	mu.Lock()
	defer mu.Unlock()
	if early != 0 || calls != 1 {
		t.Errorf("called %d times below the threshold, %d times above it; want 0 and 1", early, calls)
	}
}

// The accounting counts a recorded move as edgeBytes: it must be what an
// orEdge takes in its pages.
func TestEdgeBytesIsTheEdgeSize(t *testing.T) {
	if got := unsafe.Sizeof(orEdge{}); got != edgeBytes {
		t.Fatalf("an orEdge takes %d bytes, the accounting counts %d", got, edgeBytes)
	}
}

package model

import (
	"testing"

	"smpscope/machine"
)

// The UI's explorations share one memory budget (issue 22, item 6): the
// background search, the what-ifs and the panels each had MaxMemory of
// their own, so that the process held 1.7 GiB where README promised 768
// MiB. New turns MaxMemory into one budget, and every exploration draws
// on it.
func TestOneBudgetPerSession(t *testing.T) {
	m := New(Options{})
	if b := m.opts.Explore.Budget; b == nil || b.Limit() != DefaultExploreOptions.MaxMemory || m.opts.Explore.MaxMemory != 0 {
		t.Fatalf("default options: budget %v, MaxMemory %d", b, m.opts.Explore.MaxMemory)
	}
	opts := testOptions(mpScenario("wmb+rmb"), machine.ARM)
	opts.Explore.MaxMemory = 64 << 20
	m = Start(opts, 140, 45)
	b := m.opts.Explore.Budget
	if b == nil || b.Limit() != 64<<20 {
		t.Fatalf("budget %v", b)
	}
	if b.Peak() == 0 {
		t.Fatal("the background search did not draw on the session's budget")
	}
	charged := false
	b.OnLarge(1, func() { charged = true }) // the next search to charge anything
	m = Drive(m, keys("n")...)
	cached, _ := m.jobs.result(m.panels.key)
	if cached.necessity == nil {
		t.Fatal("no necessity report")
	}
	if !charged {
		t.Error("the necessity panel's searches did not draw on the session's budget")
	}
	if b.Used() != 0 {
		t.Errorf("%d bytes still charged once the searches ended", b.Used())
	}
}

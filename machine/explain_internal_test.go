package machine

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// blockedReason re-derives what canExec waits for in order to name it. If
// canExec gains or reorders a condition, the two must not drift apart:
// with the named entries taken out, Status says what canExec says.

var (
	parenthesised = regexp.MustCompile(` \([^)]*\)`)
	// Words blockedReason adds to canExec's reason.
	addedWords = strings.NewReplacer(" to commit", "", " to be applied", "", " before its next instruction", "")
	// canExec's reasons that blockedReason words differently: the
	// entries are named in place of a plural or a location.
	reworded = []string{"smp_load_acquire waits for its earlier release", "acquire RMW waits for its earlier release", "cmpxchg_acquire waits for its earlier release", "exclusive RMW waits for its own pending store"}
)

func normalizedReason(s string) string {
	return addedWords.Replace(parenthesised.ReplaceAllString(s, ""))
}

func blockingPrograms() []*Program {
	var ps []*Program
	{ // fences and release/acquire
		b := NewBuilder("fences")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.StoreConst(Once, x, 1)
		t0.Fence(FenceMb)
		t0.StoreConst(Release, y, 1)
		t0.Load(Acquire, r0, x)
		t0.Fence(FenceRmb)
		t0.Load(Once, r0, y)
		t1 := b.Thread()
		r1 := t1.Reg("r1")
		t1.StoreConst(Once, y, 2)
		t1.Fence(FenceWmb)
		t1.StoreConst(Once, x, 2)
		t1.Load(Once, r1, y)
		t1.Fence(FenceRmb)
		t1.Load(Acquire, r1, y)
		t1.Load(Once, r1, x)
		ps = append(ps, b.Program())
	}
	{ // RMWs of every ordering, after a wmb marker and a release
		b := NewBuilder("rmws")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.StoreConst(Once, x, 1)
		t0.Fence(FenceWmb)
		t0.RMW(OrderRelaxed, RMWXchg, true, r0, y, Const(1), nil)
		t0.RMW(OrderFull, RMWAdd, true, r0, x, Const(1), nil)
		t0.StoreConst(Release, y, 3)
		t0.RMW(OrderAcquire, RMWCmpXchg, true, r0, x, Const(5), Const(2))
		t1 := b.Thread()
		r1 := t1.Reg("r1")
		t1.StoreConst(Once, y, 2)
		t1.RMW(OrderRelease, RMWXchg, true, r1, x, Const(3), nil)
		t1.RMW(OrderRelaxed, RMWAdd, true, r1, y, Const(1), nil)
		t1.RMW(OrderFull, RMWCmpXchg, true, r1, y, Const(9), Const(4))
		ps = append(ps, b.Program())
	}
	{ // locks
		b := NewBuilder("locks")
		l, x := b.Loc("l", 0), b.Loc("x", 0)
		for i := 0; i < 2; i++ {
			t := b.Thread()
			r := t.Reg("r0")
			t.StoreConst(Once, x, Value(i+1))
			t.Lock(l)
			t.Load(Once, r, x)
			t.Unlock(l)
			t.TryLock(r, l)
		}
		ps = append(ps, b.Program())
	}
	{ // grace periods
		b := NewBuilder("rcu")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.RCULock()
		t0.Load(Once, r0, x)
		t0.StoreConst(Once, y, 1)
		t0.RCUUnlock()
		t1 := b.Thread()
		t1.StoreConst(Once, x, 1)
		t1.SyncRCU()
		t1.StoreConst(Once, y, 2)
		ps = append(ps, b.Program())
	}
	return ps
}

func TestExplainBlockedReasonsFollowCanExec(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range blockingPrograms() {
		for _, mode := range []Mode{TSO, ARM} {
			m := MustNew(p, mode)
			for seed := int64(0); seed < 300; seed++ {
				rng := rand.New(rand.NewSource(seed))
				s := m.Initial()
				for {
					for c := range s.cpus {
						ok, why := m.canExec(s, c)
						if ok || m.finished(s, c) {
							continue
						}
						got := m.Status(s, c).Reason
						seen[strings.Join(strings.Fields(why)[:2], " ")] = true
						if normalizedReason(got) == normalizedReason(why) {
							continue
						}
						matched := false
						for _, r := range reworded {
							matched = matched || strings.HasPrefix(got, r) && strings.HasPrefix(why, r)
						}
						if !matched {
							t.Errorf("%s %s P%d: Status says %q, canExec %q", p.Name, mode, c, got, why)
						}
					}
					steps := m.Enabled(s)
					if len(steps) == 0 {
						break
					}
					n, _, err := m.Apply(s, steps[rng.Intn(len(steps))])
					if err != nil {
						t.Fatal(err)
					}
					s = n
				}
			}
		}
	}
	// The programs must reach the blocking conditions they are for.
	for _, want := range []string{"smp_mb waits", "smp_rmb waits", "smp_load_acquire waits", "after an", "exclusive RMW", "fully ordered", "release RMW", "locked instruction", "spin_lock waits:", "synchronize_rcu waits"} {
		if !seen[want] {
			t.Errorf("no state blocked with %q (seen %v)", want, seen)
		}
	}
}

package picture

import (
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// TestReadsAgreeWithTrace: over random executions of every library
// scenario in both modes, the picture's reads (where each value came
// from, the store it read, the one a stale read missed) and the event
// graph's rf edges agree with the machine's classification of each load,
// the one the trace words ("forwarded", "STALE", "on a cache miss").
func TestReadsAgreeWithTrace(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	loads := 0
	for _, e := range lib {
		sp := spec(t, e.Name)
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			for seed := range uint64(seeds) {
				ex, err := scenarios.RandomExecution(sp, mode, seed)
				if err != nil {
					t.Fatal(err)
				}
				loads += checkReads(t, e.Name+" "+mode.String(), ex)
			}
		}
	}
	if loads == 0 {
		t.Fatal("no loads checked")
	}
}

func checkReads(t *testing.T, where string, ex *scenarios.Execution) int {
	t.Helper()
	pic := Build(ex)
	m := ex.Mach
	g := pic.Graph
	// The value of every store the picture knows, and the initial ones.
	val := map[machine.StoreID]machine.Value{}
	for _, j := range pic.Stores {
		val[j.Store] = j.Val
	}
	n := 0
	for i, ev := range ex.Events {
		ld := ev.Load
		r := pic.Rows[i].Read
		if (ld == nil) != (r == nil) {
			t.Fatalf("%s step %d: load %v, picture read %v", where, i+1, ld != nil, r != nil)
		}
		if ld == nil {
			continue
		}
		n++
		at := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%s step %d (%s): "+format, append([]any{where, i + 1, words.Event(m, &ev)}, args...)...)
		}
		text := words.Event(m, &ev)
		if r.Class != ld.Class || r.Source != ld.Source || r.From != ld.From || r.Loc != ld.Loc || r.Val != ld.Val {
			at("read %+v, event %+v", r, ld)
		}
		// The store it read wrote the value it read.
		if ld.From.Initial() {
			if v := ex.States[0].Memory(ld.Loc); v != ld.Val {
				at("reads the initial %d, read %d", v, ld.Val)
			}
		} else if v, ok := val[ld.From]; !ok || v != ld.Val {
			at("reads store %+v (known %v, value %d), read %d", ld.From, ok, v, ld.Val)
		}
		switch r.Class {
		case machine.Forwarded:
			// From its own store buffer: no arrow from another lane.
			if r.Via != r.CPU || r.From.CPU != r.CPU || !strings.Contains(text, "forwarded") {
				at("forwarded from lane %d, store of P%d", r.Via, r.From.CPU)
			}
		case machine.Stale:
			// An arrow from the store it missed, which is newer than the
			// one it read.
			if r.Missed == nil || *r.Missed == r.From || !strings.Contains(text, "STALE") {
				at("stale without the store it missed")
				break
			}
			note := slices.IndexFunc(pic.Rows[i].Notes, func(n Note) bool { return n.Kind == NoteMissed })
			if note < 0 || pic.Rows[i].Notes[note].From != r.Missed.CPU {
				at("no arrow from P%d, the store it missed", r.Missed.CPU)
			}
			if pic.Rows[i].Marks&MarkStale == 0 {
				at("stale read not marked")
			}
			if co := coOf(pic, *r.Missed); co <= coOf(pic, r.From) {
				at("missed store at co %d, read one at co %d", co, coOf(pic, r.From))
			}
		default:
			if r.Missed != nil || pic.Rows[i].Marks&MarkStale != 0 {
				at("not stale, but marked so")
			}
		}
		switch r.Source {
		case machine.FromMiss:
			want := pic.MemLane()
			if ld.WroteBack >= 0 {
				want = ld.WroteBack
			}
			if r.Via != want || !strings.Contains(text, "cache miss") {
				at("miss via lane %d, want %d", r.Via, want)
			}
		case machine.FromCache:
			if r.Via != r.CPU || !strings.Contains(text, "from its cache") {
				at("cache hit via lane %d", r.Via)
			}
		}
		// The graph's rf edge into the read comes from that store.
		k := slices.IndexFunc(g.Events, func(e GEvent) bool {
			return e.Kind == EvRead && e.CPU == r.CPU && e.Step == r.Step
		})
		if k < 0 {
			at("no read event in the graph")
			continue
		}
		var from []machine.StoreID
		for _, e := range g.Edges {
			if e.Kind == Rf && e.To == k && !e.Hypothetical {
				from = append(from, g.Events[e.From].Store)
			}
		}
		if len(from) != 1 || from[0] != r.From {
			at("graph rf from %v, want %+v", from, r.From)
		}
	}
	return n
}

// coOf is a store's coherence position (0 for the initial value).
func coOf(pic *Picture, id machine.StoreID) int {
	if id.Initial() {
		return 0
	}
	for _, j := range pic.Stores {
		if j.Store == id {
			return j.Co
		}
	}
	return -1
}

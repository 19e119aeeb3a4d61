package machine_test

import (
	"encoding/binary"
	"fmt"
	"reflect"

	"smpscope/machine"
)

// This file is the reference explorer of RULES.md ("The explorer"): the
// yardstick every reduction and abstraction of machine.Explore
// is measured against. It is deliberately naive and shares nothing with
// the explorer but Machine.Enabled and Machine.Apply:
//
//   - its key is the complete state, encoded field by field by reflection,
//     so a field added to the state is in the key without anyone
//     remembering to add it; only the annotations listed in
//     refAnnotations are left out, each with the reason it cannot change
//     the future;
//   - it applies no reduction: every enabled step, invalidations included,
//     is a free step from every state.

// refAnnotations are the state fields the reference key leaves out. Each
// is written by the machine for people (the UI, traces, classifications)
// and read by no rule that decides a step's enabledness or effect.
// TestReferenceAnnotationsExist keeps the list honest.
var refAnnotations = map[string]string{
	"State.coh":         "coherence history: classifies loads for display",
	"State.memCo":       "coherence position of memory values: display",
	"State.steps":       "step counter: display and event step numbers",
	"cpuState.executed": "which instructions ran: source-line marks",
	"Line.Co":           "coherence position of a cached value: display",
	"IQEntry.Arrived":   "step at which an invalidation arrived: display",
}

// refKey encodes every field of s except the annotations.
func refKey(s *machine.State) string {
	return string(stateEncoder(nil, reflect.ValueOf(s).Elem()))
}

// encoder appends the encoding of a value of one type.
type encoder func(b []byte, v reflect.Value) []byte

var stateEncoder = encoderFor(reflect.TypeOf(machine.State{}))

// encoderFor builds the encoder of type t once, by reflection over its
// fields, so encoding a state does no reflection on types.
func encoderFor(t reflect.Type) encoder {
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(b, 1)
			}
			return append(b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) []byte { return binary.AppendVarint(b, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(b []byte, v reflect.Value) []byte { return binary.AppendUvarint(b, v.Uint()) }
	case reflect.Slice, reflect.Array:
		elem := encoderFor(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			b = binary.AppendUvarint(b, uint64(v.Len()))
			for i := 0; i < v.Len(); i++ {
				b = elem(b, v.Index(i))
			}
			return b
		}
	case reflect.Struct:
		var fields []int
		var encs []encoder
		for i := 0; i < t.NumField(); i++ {
			if _, skip := refAnnotations[t.Name()+"."+t.Field(i).Name]; !skip {
				fields = append(fields, i)
				encs = append(encs, encoderFor(t.Field(i).Type))
			}
		}
		return func(b []byte, v reflect.Value) []byte {
			for j, i := range fields {
				b = encs[j](b, v.Field(i))
			}
			return b
		}
	case reflect.Pointer:
		elem := encoderFor(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, 0)
			}
			return elem(append(b, 1), v.Elem())
		}
	}
	panic(fmt.Sprintf("reference key: cannot encode a %s (%s): add it to encoderFor or refAnnotations", t.Kind(), t))
}

// refResult is what the reference explorer found.
type refResult struct {
	outcomes map[string]machine.Outcome // by Outcome.Key
	deadlock bool                       // a non-final state with no enabled step
	fault    bool                       // an execution ended by a fault
	misspec  int                        // states in which a CPU guessed a branch wrong
	states   int
	complete bool // false: the state limit stopped it
}

// refExplore visits every state reachable from the initial state by any
// sequence of enabled steps, depth first, up to limit distinct states.
func refExplore(m *machine.Machine, limit int) refResult {
	r := refResult{outcomes: map[string]machine.Outcome{}, complete: true}
	init := m.Initial()
	seen := map[string]bool{refKey(init): true}
	stack := []*machine.State{init}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r.states++
		if m.Final(s) {
			o := m.Outcome(s)
			r.outcomes[o.Key()] = o
		}
		steps := m.Enabled(s)
		if _, wrong := m.Misspeculated(s); wrong {
			if len(steps) > 0 || m.Final(s) {
				panic("reference: a mis-speculated state has steps or is final")
			}
			r.misspec++
			continue // no execution: a wrong guess of a branch's direction
		}
		if len(steps) == 0 && !m.Final(s) {
			if _, faulted := m.Fault(s); faulted {
				r.fault = true
			} else {
				r.deadlock = true
			}
		}
		for _, st := range steps {
			n, _, err := m.Apply(s, st)
			if err != nil {
				panic(fmt.Sprintf("reference: enabled step %s failed: %v", m.ID(st), err))
			}
			if k := refKey(n); !seen[k] {
				if len(seen) >= limit {
					r.complete = false
					return r
				}
				seen[k] = true
				stack = append(stack, n)
			}
		}
	}
	return r
}

package machine_test

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"

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
	return string(appendRefKey(nil, s))
}

// appendRefKey appends s's reference key to b.
func appendRefKey(b []byte, s *machine.State) []byte {
	return stateEncoder(b, unsafe.Pointer(s))
}

// encoder appends the encoding of the value of one type at p.
type encoder func(b []byte, p unsafe.Pointer) []byte

var stateEncoder = encoderFor(reflect.TypeOf(machine.State{}))

// encoderFor builds the encoder of type t once, by reflection over its
// fields: their offsets and types. Encoding a state then reads memory at
// those offsets and does no reflection at all, which makes the reference
// several times faster than walking reflect.Values (the reference's key
// was a fifth of the machine package's test time).
func encoderFor(t reflect.Type) encoder {
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, p unsafe.Pointer) []byte {
			if *(*bool)(p) {
				return append(b, 1)
			}
			return append(b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return signedBySize[t.Size()]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return unsignedBySize[t.Size()]
	case reflect.Array:
		elem, size, n := encoderFor(t.Elem()), t.Elem().Size(), t.Len()
		return func(b []byte, p unsafe.Pointer) []byte {
			b = binary.AppendUvarint(b, uint64(n))
			for i := 0; i < n; i++ {
				b = elem(b, unsafe.Add(p, uintptr(i)*size))
			}
			return b
		}
	case reflect.Slice:
		elem, size := encoderFor(t.Elem()), t.Elem().Size()
		return func(b []byte, p unsafe.Pointer) []byte {
			h := (*sliceHeader)(p)
			b = binary.AppendUvarint(b, uint64(h.len))
			for i := 0; i < h.len; i++ {
				b = elem(b, unsafe.Add(h.data, uintptr(i)*size))
			}
			return b
		}
	case reflect.Struct:
		type field struct {
			offset uintptr
			enc    encoder
		}
		var fields []field
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if _, skip := refAnnotations[t.Name()+"."+f.Name]; !skip {
				fields = append(fields, field{f.Offset, encoderFor(f.Type)})
			}
		}
		return func(b []byte, p unsafe.Pointer) []byte {
			for _, f := range fields {
				b = f.enc(b, unsafe.Add(p, f.offset))
			}
			return b
		}
	case reflect.Pointer:
		elem := encoderFor(t.Elem())
		return func(b []byte, p unsafe.Pointer) []byte {
			q := *(*unsafe.Pointer)(p)
			if q == nil {
				return append(b, 0)
			}
			return elem(append(b, 1), q)
		}
	}
	panic(fmt.Sprintf("reference key: cannot encode a %s (%s): add it to encoderFor or refAnnotations", t.Kind(), t))
}

// signedBySize and unsignedBySize encode an integer of each size.
var (
	signedBySize   = map[uintptr]encoder{1: varintAt[int8], 2: varintAt[int16], 4: varintAt[int32], 8: varintAt[int64]}
	unsignedBySize = map[uintptr]encoder{1: uvarintAt[uint8], 2: uvarintAt[uint16], 4: uvarintAt[uint32], 8: uvarintAt[uint64]}
)

func varintAt[T int8 | int16 | int32 | int64](b []byte, p unsafe.Pointer) []byte {
	return binary.AppendVarint(b, int64(*(*T)(p)))
}

func uvarintAt[T uint8 | uint16 | uint32 | uint64](b []byte, p unsafe.Pointer) []byte {
	return binary.AppendUvarint(b, uint64(*(*T)(p)))
}

// sliceHeader is the layout of every Go slice value.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
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
	var key []byte
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
			key = appendRefKey(key[:0], n)
			if !seen[string(key)] {
				if len(seen) >= limit {
					r.complete = false
					return r
				}
				seen[string(key)] = true
				stack = append(stack, n)
			}
		}
	}
	return r
}

package machine

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// A field of the state must be handled in several places: the struct,
// clone and cloneInto, Equal, the search encoding (appendMemBlock,
// appendCPUBlock and their decoder) and the key. fieldRoles is the one
// list that says, for every field of State and of what it holds, which of
// them see it; TestStateFieldsAreHandled fails on a field missing from
// the list and on a field whose handling does not match its role.

type fieldRole uint8

const (
	// inKey: a rule reads it. Clone keeps it, Equal compares it, the key
	// encodes it, and decoding the search encoding gives it back (the
	// decoded state has the same search key).
	inKey fieldRole = iota
	// inEqual: an annotation for people (step numbers, executed marks,
	// the coherence history): clone keeps it and Equal compares it, but
	// no rule reads it, so the key leaves it out (key.go says why).
	inEqual
	// annotation: kept by clone only.
	annotation
	// container: a slice of structs; its elements' fields have roles of
	// their own.
	container
)

func (r fieldRole) String() string {
	return [...]string{"inKey", "inEqual", "annotation", "container"}[r]
}

// fieldRoles names fields by their path from State: "cpus.sb.Val" is the
// Val of an entry of a CPU's store buffer.
var fieldRoles = map[string]fieldRole{
	"mem":      inKey, // through Latest: memory's copy of an owned line is left out
	"memCo":    annotation,
	"cpus":     container,
	"srcuOpen": inKey,
	"memSecs":  inKey, // through Latest, as mem
	"coh":      inEqual,
	"steps":    inEqual,

	"cpus.pc":       inKey,
	"cpus.early":    inKey,
	"cpus.executed": inEqual,
	"cpus.wrote":    annotation, // the search's: registers written since a decode (outregs.go)
	"cpus.acqWait":  inKey,
	"cpus.syncWait": inKey,
	"cpus.fault":    inKey,
	"cpus.misspec":  inKey,
	"cpus.rcuDepth": inKey,
	"cpus.gpDomain": inKey,
	"cpus.gpWait":   inKey,
	"cpus.gpSecs":   inKey,
	"cpus.regs":     inKey,
	"cpus.secs":     inKey,
	"cpus.cache":    container,
	"cpus.sb":       container,
	"cpus.iq":       container,

	"cpus.cache.Val":   inKey, // ARM-like: an owned line's, or a stale copy's
	"cpus.cache.Co":    inEqual,
	"cpus.cache.Secs":  inKey, // an owned line's, or a stale copy's
	"cpus.cache.State": inKey, // ARM-like: I, S or owned

	"cpus.sb.Loc":   inKey,
	"cpus.sb.Kind":  inKey,
	"cpus.sb.Val":   inKey,
	"cpus.sb.Instr": inKey,
	"cpus.sb.Secs":  inKey,
	"cpus.sb.Guard": inKey,

	"cpus.iq.Loc":     inKey,
	"cpus.iq.Marked":  inKey,
	"cpus.iq.Before":  inKey, // for registers that flow into an address
	"cpus.iq.Arrived": inEqual,
}

// stateFields lists the field paths of State's type, walking into slices
// of structs.
func stateFields() []string {
	var out []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			path := prefix + f.Name
			out = append(out, path)
			if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct {
				walk(path+".", f.Type.Elem())
			}
		}
	}
	walk("", reflect.TypeOf(State{}))
	return out
}

// fieldsBase is an ARM-like state in which every field holds something:
// P0 has a store buffered, an invalidation queued before a load whose
// value is then used as an address, and a stale copy.
func fieldsBase(t *testing.T) (*Machine, *State) {
	b := NewBuilder("fields")
	x, y, p := b.Loc("x", 0), b.Loc("y", 0), b.Loc("p", PtrTo(0))
	t0 := b.Thread()
	r0, r1 := t0.Reg("r0"), t0.Reg("r1")
	t0.StoreConst(Once, y, 1)
	t0.Load(Once, r0, p)
	t0.LoadVia(Once, r1, r0)
	t0.StoreConst(Once, y, 2)
	t1 := b.Thread()
	r2 := t1.Reg("r2")
	t1.StoreConst(Once, x, 1)
	t1.Load(Once, r2, y)
	// An SRCU section an unlock closes, so that values carry sections.
	sl := b.Loc("s", 0)
	t2 := b.Thread()
	r3 := t2.Reg("r3")
	t2.SRCULock(r3, sl)
	t2.SRCUUnlock(sl, RegExpr(r3))
	m := MustNew(b.Program(), ARM)
	s := m.Initial()
	for _, id := range []string{"P0 exec", "P1 exec", "P1 commit #0", "P0 exec"} {
		st, err := m.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		if s, _, err = m.Apply(s, st); err != nil {
			t.Fatal(err)
		}
	}
	if cs := &s.cpus[0]; len(cs.sb) != 1 || len(cs.iq) != 1 || cs.iq[0].Before&m.fut.addrRegs[0] == 0 || cs.pc != 2 {
		t.Fatalf("base state: %+v", *cs)
	}
	return m, s
}

// settable returns v's field name, settable even when unexported.
func settable(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// mutate changes the field at path in s: a number's lowest bit, a bool,
// every element of a slice of numbers, every node of the coherence
// history; in a slice of structs, the first element's field.
func mutate(t *testing.T, s *State, path string) {
	v := reflect.ValueOf(s).Elem()
	parts := strings.Split(path, ".")
	for i, name := range parts {
		f := settable(v, name)
		if i == len(parts)-1 {
			flip(t, f, path)
			return
		}
		if f.Len() == 0 {
			t.Fatalf("%s: the base state's %s is empty", path, name)
		}
		v = f.Index(0)
	}
}

func flip(t *testing.T, f reflect.Value, path string) {
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(!f.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(f.Int() ^ 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(f.Uint() ^ 1)
	case reflect.Slice:
		// A fresh slice: states share nothing once built, but a base
		// and its mutant must not.
		n := reflect.MakeSlice(f.Type(), f.Len(), f.Len())
		reflect.Copy(n, f)
		f.Set(n)
		for i := 0; i < f.Len(); i++ {
			e := f.Index(i)
			if e.Kind() == reflect.Pointer { // the coherence history
				node := *e.Interface().(*cohNode)
				node.n++
				e.Set(reflect.ValueOf(&node))
				continue
			}
			flip(t, e, path)
		}
	default:
		t.Fatalf("%s: no way to change a %s", path, f.Kind())
	}
}

// field reads the field at path of s (the first element's in a slice of
// structs).
func field(s *State, path string) any {
	v := reflect.ValueOf(s).Elem()
	parts := strings.Split(path, ".")
	for i, name := range parts {
		v = settable(v, name)
		if i < len(parts)-1 {
			v = v.Index(0)
		}
	}
	return v.Interface()
}

// searchKey is the explorer's encoding of s (dead lines left out).
func searchKey(m *Machine, s *State) string { return string(m.appendKey(nil, s, true)) }

// roundTrip decodes s's search encoding.
func roundTrip(m *Machine, s *State) *State {
	mem := m.appendMemBlock(nil, s, ^uint32(0))
	var blocks [][]byte
	for c := range s.cpus {
		live, reads := m.blockMasks(s, c, true)
		blocks = append(blocks, m.appendCPUBlock(nil, s, c, live, reads, ^uint32(0), 0))
	}
	return m.decodeState(&scratch{}, mem, blocks, true, nil)
}

func TestStateFieldsAreHandled(t *testing.T) {
	fields := stateFields()
	for _, f := range fields {
		if _, ok := fieldRoles[f]; !ok {
			t.Errorf("state field %s has no role in fieldRoles: say which of clone, Equal, the encoding and the key handle it, and make them", f)
		}
	}
	for f := range fieldRoles {
		if !slices.Contains(fields, f) {
			t.Errorf("fieldRoles names %s, which the state does not have", f)
		}
	}
	m, base := fieldsBase(t)
	if k := searchKey(m, roundTrip(m, base)); k != searchKey(m, base) {
		t.Fatal("the base state does not survive its search encoding")
	}
	for _, f := range fields {
		role := fieldRoles[f]
		if role == container {
			continue
		}
		mut := base.clone()
		mutate(t, mut, f)
		if reflect.DeepEqual(field(mut, f), field(base, f)) {
			t.Fatalf("%s: the mutation changed nothing", f)
		}
		if got := field(mut.clone(), f); !reflect.DeepEqual(got, field(mut, f)) {
			t.Errorf("%s: clone does not copy it (%v, want %v)", f, got, field(mut, f))
		}
		var sc scratch
		if role != annotation && f != "coh" { // cloneInto leaves the history to its caller
			if got := field(sc.load(mut), f); !reflect.DeepEqual(got, field(mut, f)) {
				t.Errorf("%s: cloneInto does not copy it", f)
			}
		}
		if equal := mut.Equal(base); equal != (role == annotation) {
			t.Errorf("%s (%v): Equal says %v", f, role, equal)
		}
		changed := m.Key(mut) != m.Key(base)
		if changed != (role == inKey) {
			t.Errorf("%s (%v): the key changes: %v", f, role, changed)
		}
		if role == inKey {
			if k := searchKey(m, roundTrip(m, mut)); k != searchKey(m, mut) {
				t.Errorf("%s: decoding the search encoding loses it", f)
			}
		}
	}
}

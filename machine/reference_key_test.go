package machine_test

import (
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
)

// TestReferenceAnnotationsExist checks that every field refAnnotations
// leaves out of the reference key exists: a renamed field would
// otherwise silently join the key under its new name while the stale
// entry excuses nothing.
func TestReferenceAnnotationsExist(t *testing.T) {
	found := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Pointer:
			walk(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				name := t.Name() + "." + t.Field(i).Name
				if !found[name] {
					found[name] = true
					walk(t.Field(i).Type)
				}
			}
		}
	}
	walk(reflect.TypeOf(machine.State{}))
	for name := range refAnnotations {
		if !found[name] {
			t.Errorf("refAnnotations names %s, which no type in State has", name)
		}
	}
}

// TestReferenceKeyIsEquality checks the reference key, which reads
// memory at offsets, against a comparison that walks reflect.Values:
// two states reached in the same program have the same key exactly when
// they are equal in every field but the annotations.
func TestReferenceKeyIsEquality(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := genRandomOf(rt, 3, 7, nil)
		m := machine.MustNew(p, modes[rapid.IntRange(0, 1).Draw(rt, "mode")])
		var states []*machine.State
		for walk := 0; walk < 3; walk++ {
			s := m.Initial()
			states = append(states, s)
			for i := 0; i < 25; i++ {
				next, ok := randomStep(rt, m, s)
				if !ok {
					break
				}
				s = next
				states = append(states, s)
			}
		}
		for i, a := range states {
			for _, b := range states[i+1:] {
				sameKey := refKey(a) == refKey(b)
				var path []string
				equal := refEqual(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), &path)
				if sameKey != equal {
					rt.Fatalf("same key %v, equal %v (first difference at %s)", sameKey, equal, strings.Join(path, "."))
				}
			}
		}
	})
}

// refEqual compares a and b field by field, leaving out refAnnotations;
// a nil slice equals an empty one, as in the key. On a difference, path
// names where.
func refEqual(a, b reflect.Value, path *[]string) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			*path = append(*path, "len")
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !refEqual(a.Index(i), b.Index(i), path) {
				*path = append([]string{"[]"}, *path...)
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return refEqual(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < t.NumField(); i++ {
			name := t.Name() + "." + t.Field(i).Name
			if _, skip := refAnnotations[name]; skip {
				continue
			}
			if !refEqual(a.Field(i), b.Field(i), path) {
				*path = append([]string{name}, *path...)
				return false
			}
		}
		return true
	}
	panic("refEqual: no comparison for " + a.Kind().String())
}

// randomStep takes one of s's enabled steps, drawn by rt; false when
// none is enabled.
func randomStep(rt *rapid.T, m *machine.Machine, s *machine.State) (*machine.State, bool) {
	steps := m.Enabled(s)
	if len(steps) == 0 {
		return nil, false
	}
	next, _, err := m.Apply(s, steps[rapid.IntRange(0, len(steps)-1).Draw(rt, "step")])
	if err != nil {
		rt.Fatal(err)
	}
	return next, true
}

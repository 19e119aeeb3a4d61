package words_test

import (
	"testing"

	"smpscope/scenarios/words"
)

// A statement compiled to several instructions names its later parts by
// what they do, and its first by nothing (the listing shows the
// statement's text there).
func TestPartNamesLaterPartsOfAStatement(t *testing.T) {
	c := compile(t, "parts", []byte(`C parts
{}
P0(int *x, atomic_t *y, int *z)
{
	int r0; int r3; int r4;
	WRITE_ONCE(*x, 2);
	r0 = atomic_inc_return_release(y);
	r3 = atomic_dec_and_test(y);
	r4 = READ_ONCE(*x) + READ_ONCE(*z);
	WRITE_ONCE(*z, 1);
}
exists (0:r0=0)
`))
	p := c.Program
	var got []string
	for i := range p.Threads[0].Code {
		got = append(got, words.Part(p, 0, i))
	}
	want := []string{
		"",        // WRITE_ONCE(*x, 2)
		"",        // the read-modify-write of y
		"sets r0", // r0 = the old value plus one
		"",        // the read-modify-write of y
		"sets r3", // r3 = whether it reached zero
		"",        // the read of x
		"reads z", // the read of z
		"sets r4", // the sum
		"",        // WRITE_ONCE(*z, 1), a statement of its own
	}
	if len(got) != len(want) {
		t.Fatalf("%d instructions, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("instruction %d (%s): part %q, want %q", i+1, p.Threads[0].Code[i].Text, got[i], want[i])
		}
		if cont := words.Continues(p, 0, i); cont != (want[i] != "") {
			t.Errorf("instruction %d: Continues %v", i+1, cont)
		}
	}
}

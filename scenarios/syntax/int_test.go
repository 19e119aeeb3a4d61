package syntax

import "testing"

func TestIntLiterals(t *testing.T) {
	good := map[string]int64{"0": 0, "42": 42, "0x1f": 31, "0X1F": 31, "017": 15, "0b101": 5, "3u": 3, "3UL": 3, "9223372036854775807": 1<<63 - 1}
	for in, want := range good {
		got, err := parseInt(in)
		if err != nil || got != want {
			t.Errorf("parseInt(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"09", "0x", "1a", "12abc", "9223372036854775808", "1_000", "0b2", "3uu"} {
		if v, err := parseInt(in); err == nil {
			t.Errorf("parseInt(%q) = %d, want an error", in, v)
		}
	}
}

package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"smpscope/scenarios/syntax"
)

// readMail reads a file of testdata/mail.
func readMail(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "mail", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMailGolden checks issue 18's mails: a test quoted twice, quoted at
// mixed depths (">>" and "> >"), with CRLF line ends, as the added lines
// of a patch, and two tests in one mail, each give the same program as
// the test as a file, and say where in the mail it was.
func TestMailGolden(t *testing.T) {
	want, err := Resolve(filepath.Join("testdata", "mail", "mp+wmb-rmb-mail.litmus"), nil)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Resolve(filepath.Join("testdata", "mail", "sb-mail.litmus"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mail, test string
		want       *Spec
		from       string
	}{
		{"quoted-twice.txt", "", want, "<stdin>:5"},
		{"mixed-depth.txt", "", want, "<stdin>:5"},
		{"crlf.txt", "", want, "<stdin>:5"},
		{"patch.txt", "", want, "<stdin>:17"},
		{"two-tests.txt", "2", want, "<stdin>:29"},
		{"two-tests.txt", "mp+wmb-rmb-mail", want, "<stdin>:29"},
		{"two-tests.txt", "1", sb, "<stdin>:5"},
		{"two-tests.txt", "sb-mail", sb, "<stdin>:5"},
	} {
		arg := StdinName
		if c.test != "" {
			arg += "#" + c.test
		}
		sp, err := Resolve(arg, strings.NewReader(readMail(t, c.mail)))
		if err != nil {
			t.Errorf("%s %s: %v", c.mail, c.test, err)
			continue
		}
		if syntax.Format(sp.Litmus) != syntax.Format(c.want.Litmus) || sp.Condition() != c.want.Condition() || sp.Name != c.want.Name || sp.Expected != c.want.Expected {
			t.Errorf("%s %s: not the same test:\n%s\nwant\n%s", c.mail, c.test, syntax.Format(sp.Litmus), syntax.Format(c.want.Litmus))
		}
		if sp.From != c.from || sp.File != "" {
			t.Errorf("%s %s: from %q, file %q; want from %q", c.mail, c.test, sp.From, sp.File, c.from)
		}
	}
	// The same through a file, by the file's name.
	path := filepath.Join("testdata", "mail", "two-tests.txt")
	if sp, err := Resolve(path+"#2", nil); err != nil || syntax.Format(sp.Litmus) != syntax.Format(want.Litmus) || sp.From != path+":29" {
		t.Errorf("%s#2: %v, %v", path, sp, err)
	}
	// Without a choice, two tests are listed.
	_, err = Resolve(StdinName, strings.NewReader(readMail(t, "two-tests.txt")))
	if err == nil || err.Error() != "<stdin> holds 2 litmus tests (1. sb-mail at line 5, 2. mp+wmb-rmb-mail at line 29): take one with --test N or --test NAME" {
		t.Errorf("two tests, none chosen: %v", err)
	}
	for sel, msg := range map[string]string{
		"3":    "<stdin> holds 2 litmus tests, not 3",
		"nope": `<stdin> holds no litmus test named "nope"`,
	} {
		if _, err := Resolve(StdinName+"#"+sel, strings.NewReader(readMail(t, "two-tests.txt"))); err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("--test %s: %v", sel, err)
		}
	}
}

// TestMailErrors checks that errors in a test found in a mail name the
// mail's line and column, for the parser and the compiler alike, and
// that a litmus file with an error still gets the parser's own message.
func TestMailErrors(t *testing.T) {
	mail := readMail(t, "quoted-twice.txt")
	for _, c := range []struct{ from, to, want string }{
		// A missing ";" on mail line 28, after "> > \t" (5 columns).
		{"> > \tr0 = READ_ONCE(*y);", "> > \tr0 = READ_ONCE(*y)", `<stdin>:28:24: expected ";"`},
		// A compile error: y is not P0's parameter any more.
		{"> > P0(int *x, int *y)", "> > P0(int *x, int *q)", "<stdin>:20:18: y is not a parameter of P0"},
		// A test that never ends.
		{"> > exists (1:r0=1 /\\ 1:r1=0)", "> > exists (1:r0=1 /\\ 1:r1=0", "<stdin>:"},
	} {
		bad := strings.Replace(mail, c.from, c.to, 1)
		if bad == mail {
			t.Fatalf("%q is not in the mail", c.from)
		}
		_, err := Resolve(StdinName, strings.NewReader(bad))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s…", c.to, err, c.want)
		}
		// The same in CRLF.
		_, err = Resolve(StdinName, strings.NewReader(strings.ReplaceAll(bad, "\n", "\r\n")))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s in CRLF: got %v, want %s…", c.to, err, c.want)
		}
	}
	// A litmus file with an error, on standard input: the parser's word.
	plain := readMail(t, "sb-mail.litmus")
	broken := strings.Replace(plain, "P1(int *x, int *y)", "P1(int *x, int *y", 1)
	_, direct := Parse(stdinFile, []byte(broken))
	_, err := Resolve(StdinName, strings.NewReader(broken))
	if direct == nil || err == nil || err.Error() != direct.Error() {
		t.Errorf("a broken litmus file: %v, want the parser's %v", err, direct)
	}
	// Prose alone.
	if _, err := Resolve(StdinName, strings.NewReader("Hi,\n\nC is fine for this.\n\nThanks\n")); err == nil || !strings.HasPrefix(err.Error(), "<stdin>:1:1:") {
		t.Errorf("prose: %v", err)
	}
}

// TestFindLitmus checks how tests are found: prose that starts like a
// test is not one, a test quoted again at another depth is listed once,
// a test ends at its final clause even when prose follows on the next
// line, and a condition that goes on over lines is read whole.
func TestFindLitmus(t *testing.T) {
	sb := readMail(t, "sb-mail.litmus")
	quote := func(s, q string) string {
		return q + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+q) + "\n"
	}
	mail := "C is what the kernel is written in.\n\n" + quote(sb, "> ") + "Looks right.\n\n" + quote(sb, "> > ") + "Thanks\n"
	tests := FindLitmus("m", []byte(mail))
	if len(tests) != 1 || tests[0].Name != "sb-mail" || tests[0].Line != 3 || tests[0].Depth != 1 {
		t.Fatalf("found %+v", tests)
	}
	// Prose right after the final clause, on the next line, and a
	// condition over two lines, the second starting with its operator.
	tail := strings.Replace(sb, "exists (0:r0=0 /\\ 1:r0=0)", "exists (0:r0=0\n        /\\ 1:r0=0)\nThat's all: it's what herd7 says.", 1)
	tests = FindLitmus("m", []byte(tail))
	if len(tests) != 1 || tests[0].Err != nil {
		t.Fatalf("prose after the clause: %+v", tests)
	}
	s, err := tests[0].Parse()
	if err != nil || syntax.FormatCond(s.Final.Cond) != `(0:r0=0 /\ 1:r0=0)` {
		t.Errorf("a condition over two lines: %v, %v", s, err)
	}
	// The line numbers are the mail's: the why report and errors name them.
	if strings.Count(string(tests[0].Src), "\n") < 10 || !strings.HasPrefix(string(tests[0].Src), "C sb-mail") {
		t.Errorf("source %q", tests[0].Src)
	}
}

// FuzzFindLitmus checks that no text makes finding tests panic, and that
// every test found either parses or says why with a position in the text.
func FuzzFindLitmus(f *testing.F) {
	for _, name := range []string{"quoted-twice.txt", "patch.txt", "two-tests.txt", "crlf.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", "mail", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, mt := range FindLitmus("m", src) {
			if _, err := mt.Parse(); err != nil && !strings.HasPrefix(err.Error(), "m:") {
				t.Errorf("error without a position: %v", err)
			}
		}
	})
}

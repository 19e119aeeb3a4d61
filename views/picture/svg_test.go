package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"smpscope/machine"
)

// wellFormed parses doc as XML to its end and returns the root's name.
func wellFormed(t *testing.T, doc []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	root := ""
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					t.Fatalf("a second root element %s", tok.Name.Local)
				}
				root = tok.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 {
		t.Fatalf("unclosed elements")
	}
	return root
}

// TestSVG: the SVG of each golden execution is well-formed, one svg
// element in the SVG namespace, self-contained (no external references),
// and says what the text says (the stale read, the cycle).
func TestSVG(t *testing.T) {
	cases := map[string]func(testing.TB) *Picture{
		"mp-stale":   func(t testing.TB) *Picture { return Build(mpStale(t)) },
		"mp+wmb-rmb": func(t testing.TB) *Picture { return Build(witness(t, "mp+wmb-rmb", machine.ARM)) },
		"iriw+once":  func(t testing.TB) *Picture { return Build(witness(t, "iriw+once", machine.ARM)) },
		"sb+once":    func(t testing.TB) *Picture { return Build(witness(t, "sb+once", machine.ARM)) },
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			pic := build(t)
			doc, err := SVG(pic)
			if err != nil {
				t.Fatal(err)
			}
			if root := wellFormed(t, doc); root != "svg" {
				t.Fatalf("root %q", root)
			}
			s := string(doc)
			if !strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) {
				t.Error("no SVG namespace")
			}
			for _, bad := range []string{"href=\"http", "xlink:href", "<script", "<image", "@import"} {
				if strings.Contains(s, bad) {
					t.Errorf("not self-contained: %s", bad)
				}
			}
			if c := pic.Graph.CycleText(); pic.Final && c != "" && !strings.Contains(s, xmlEscape(strings.Fields(c)[0])) {
				t.Errorf("the cycle is not said")
			}
			if out := os.Getenv("SMPSCOPE_SVG_DIR"); out != "" {
				os.WriteFile(filepath.Join(out, name+".svg"), doc, 0o644)
			}
		})
	}
	doc, _ := SVG(Build(mpStale(t)))
	if !strings.Contains(string(doc), "missed x=1") || !strings.Contains(string(doc), "‼ STALE") {
		t.Error("the stale read and the store it missed are not drawn")
	}
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// TestSVGEscapes: names from the input reach the document escaped.
func TestSVGEscapes(t *testing.T) {
	pic := Build(mpStale(t))
	pic.Name = `<mp&"x"> ` + "\x1b[31m\x00"
	doc, err := SVG(pic)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, doc)
	if strings.Contains(string(doc), "<mp&") || strings.Contains(string(doc), "\x1b") {
		t.Errorf("unescaped name in the document")
	}
}

// TestSVGRenders: rsvg-convert (librsvg), where installed, renders the
// document to PNG.
func TestSVGRenders(t *testing.T) {
	bin, err := osexec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert not installed (apt-get install librsvg2-bin)")
	}
	doc, err := SVG(Build(witness(t, "mp+wmb-rmb", machine.ARM)))
	if err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(bin, "--format", "png")
	cmd.Stdin = bytes.NewReader(doc)
	png, err := cmd.Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("not a PNG")
	}
}

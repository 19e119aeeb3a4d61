package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/views/picture"
)

// The picture of an execution (package views/picture draws it): for
// trace --picture, and the UI's picture page (p).

// pictureStyles are the styles of the picture's classes.
func pictureStyles(st Styles) map[picture.Class]lipgloss.Style {
	return map[picture.Class]lipgloss.Style{
		picture.ClassLane:    st.Dim,
		picture.ClassHead:    st.Bold,
		picture.ClassStale:   st.StaleLine,
		picture.ClassReorder: st.EarlyLine,
		picture.ClassWait:    st.CPUBlocked,
		picture.ClassRead:    st.Owner,
		picture.ClassInval:   st.Condition,
		picture.ClassDim:     st.Dim,
	}
}

// PicturePaint colours a picture with the styles.
func PicturePaint(st Styles) picture.Paint {
	styles := pictureStyles(st)
	return func(c picture.Class, s string) string {
		if sty, ok := styles[c]; ok {
			return sty.Render(s)
		}
		return s
	}
}

// RenderPicture renders the picture of an execution for a mail or a
// terminal (trace --picture): the timeline, how it ends, the event
// graph's cycle, the stores' journeys and a legend, then what replaying
// it needs, like RenderTrace. opts.Width (default 72), opts.ASCII and
// opts.Color apply as there; markdown puts the picture in a code block.
func RenderPicture(ex *scenarios.Execution, opts TraceOptions) string {
	w := opts.Width
	if w <= 0 {
		w = DefaultTraceWidth
	}
	w = max(w, traceMinWidth)
	po := picture.TextOptions{Width: w, ASCII: opts.ASCII}
	if opts.Color && opts.Format != TraceMarkdown {
		po.Paint = PicturePaint(DefaultStyles())
	}
	pic := picture.Text(picture.Build(ex), po)
	t := &tracer{ex: ex, opts: opts, md: opts.Format == TraceMarkdown, width: w, st: newTraceStyles(opts.Color), color: opts.Color}
	if t.md {
		fence := "```"
		for strings.Contains(pic, fence) {
			fence += "`"
		}
		t.line(fence + "text")
		t.b.WriteString(syntax.Printable(pic))
		t.line(fence)
	} else {
		t.b.WriteString(pic)
	}
	t.replayBlock()
	out := t.b.String()
	if opts.ASCII {
		out = asciiOnly(out)
	}
	return out
}

// pictureLines is the picture page (p): the timeline of the history up
// to the step shown, w wide, folding quiet steps to fit h lines where it
// can; it returns the line of the step shown too, which the page keeps
// in view.
func pictureLines(in ScenarioInput, st Styles, w, h int) ([]string, int) {
	if in.Mach == nil || len(in.States) < in.Cursor+1 || len(in.Events) < in.Cursor {
		return nil, 0
	}
	ex := &scenarios.Execution{Spec: in.Spec, Mach: in.Mach, Steps: in.Steps[:in.Cursor],
		States: in.States[:in.Cursor+1], Events: in.Events[:in.Cursor]}
	if in.Cursor == len(in.Steps) {
		ex.Attempt = in.Attempt // the whole closest attempt: its end says how near it came
	}
	return picture.TextPage(picture.Build(ex), picture.TextOptions{
		Width: w, MaxLines: h, Ahead: len(in.Steps) - in.Cursor, NoHeader: true, Paint: PicturePaint(st),
	})
}

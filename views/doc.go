// Package views holds every rendering of smpscope: the UI's screens and
// the plain-text reports of the command line. Each is a pure function of
// the data it is given; views reads machine and scenarios values and
// never changes them.
//
// Screens: NewFrame lays out the scenario screen once per update from a
// ScenarioInput (Layout, or PresentLayout in presentation mode) and
// renders each pane's lines; the model's viewports keep the offsets, and
// Frame.Draw draws it at them. Panes are small functions of their own
// input (cpuBlock, memoryLines, stepLines, historyLines, outcomeLines,
// and the help, story, compare, necessity, fix and what-if pages; whatif.go
// draws the edit cursor, the ~ marks and the verdict before → after of
// an edited scenario from a WhatIfInput). RenderPicker and
// RenderPickerRow draw the picker. Styles names every style by meaning.
//
// Reports, for mails and scripts: RenderTrace (an execution step by step,
// text or markdown, 72 columns, ending with the block that replays it),
// CompareReport, WhyReport and FixReport (the analyses, worded once as a
// document of blocks that the UI's panels render too), CheckText,
// HerdReport and CheckJSON (smpscope check), ListReport, ListJSON and
// MailList (smpscope list).
//
// Pictures of an execution (a timeline, an event graph) are drawn by the
// subpackage picture; picture.go here puts them on the UI's picture page
// (pictureLines) and in trace --picture (RenderPicture).
//
// Text has one word-wrapper, the subpackage textwrap (Words, Items; here
// wrap and paragraph put it to use), which the pictures wrap with too,
// and one table renderer (table), shared by screens and reports.
package views

// Package views renders smpscope's screens with lipgloss. Every function is
// a pure function of the state it is given and the terminal size; views reads
// machine state but never changes it.
package views

// Package model holds smpscope's bubbletea models: the state of the picker
// and scenario screens, and Update, which routes keys, mouse and background
// results. It performs no rendering of its own (see package views) and no I/O
// beyond the commands it returns.
package model

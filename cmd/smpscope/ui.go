package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// runUI starts the interactive UI. (Wired to package model as it lands.)
func runUI(cmd *cobra.Command, args []string, stdin io.Reader, stdout io.Writer) error {
	return &exitError{2, fmt.Sprintf("smpscope: the interactive UI is not built yet; try %q", "smpscope check NAME")}
}

package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"smpscope/scenarios"
	"smpscope/views"
)

func newListCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeList("list", stdout, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object per line with name, family, variant, title")
	return cmd
}

func writeList(who string, w io.Writer, asJSON bool) error {
	lib, err := scenarios.Library()
	if err != nil {
		return &exitError{2, err.Error()}
	}
	text := views.ListReport(lib)
	if asJSON {
		if text, err = views.ListJSON(lib); err != nil {
			return err
		}
	}
	return writeOut(who, w, text)
}

func newShowCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in scenario's litmus source",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := scenarios.Builtin(args[0])
			if err != nil {
				return &exitError{2, fmt.Sprintf("smpscope: %v (see smpscope list)", err)}
			}
			return writeOut("show", stdout, e.Source)
		},
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"smpscope/scenarios"
)

func newListCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeList(stdout, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object per line with name, family, variant, title")
	return cmd
}

func writeList(w io.Writer, asJSON bool) error {
	lib, err := scenarios.Library()
	if err != nil {
		return &exitError{2, err.Error()}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, e := range lib {
			if err := enc.Encode(struct {
				Name    string `json:"name"`
				Family  string `json:"family"`
				Variant string `json:"variant"`
				Title   string `json:"title"`
			}{e.Name, e.Family, e.Variant, e.Title}); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tFAMILY\tVARIANT\tTITLE")
	for _, e := range lib {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.Family, e.Variant, e.Title)
	}
	return tw.Flush()
}

func newShowCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in scenario's litmus source",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := scenarios.Library()
			if err != nil {
				return &exitError{2, err.Error()}
			}
			for _, e := range lib {
				if e.Name == args[0] {
					_, err := io.WriteString(stdout, e.Source)
					return err
				}
			}
			return &exitError{2, fmt.Sprintf("smpscope: no built-in scenario named %q (see smpscope list)", args[0])}
		},
	}
}

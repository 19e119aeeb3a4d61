package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"smpscope/scenarios"
	"smpscope/views"
)

func newListCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json] [MAIL | -]",
		Short: "List the built-in scenarios, or the litmus tests a mail holds",
		Long: `list prints the built-in scenarios. With a file or - (standard input) it
lists the litmus tests that text holds instead: a mail with tests quoted
("> ", ">> "), in a patch or among prose. Every command takes one of them
with --test N or --test NAME.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				tests, err := scenarios.ListMail(args[0], stdin)
				if err != nil {
					return &exitError{2, "smpscope list: " + err.Error()}
				}
				if len(tests) == 0 {
					return &exitError{2, "smpscope list: " + args[0] + ": no litmus test found (a test starts with a line \"C NAME\")"}
				}
				return writeOut("list", stdout, views.MailList(tests))
			}
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

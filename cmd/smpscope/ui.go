package main

import (
	"fmt"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/model"
)

// uiOptions are the root command's flags for the interactive UI.
type uiOptions struct {
	mode    string
	seed    uint64
	replay  string
	noMouse bool
}

func addUIFlags(cmd *cobra.Command, o *uiOptions) {
	f := cmd.Flags()
	f.StringVar(&o.mode, "mode", "tso", "start in tso or arm mode (m switches)")
	f.Uint64Var(&o.seed, "seed", 1, "seed for the random steps of space and g, so sessions replay alike")
	f.StringVar(&o.replay, "replay", "", "open at the end of the trace `FILE`, with its whole history to step back through")
	f.BoolVar(&o.noMouse, "no-mouse", false, "leave the mouse to the terminal (text selection) instead of clicks and wheel")
}

// uiModelOptions turns the command line into model options: the library,
// the scenario to open (if any), the mode and a replayed history.
func uiModelOptions(args []string, o uiOptions) (model.Options, error) {
	opts, err := model.LibraryOptions()
	if err != nil {
		return opts, &exitError{2, "smpscope: " + err.Error()}
	}
	mode, err := machine.ParseMode(o.mode)
	if err != nil {
		return opts, &exitError{2, "smpscope: --mode: " + err.Error()}
	}
	opts.Mode, opts.Seed = mode, o.seed
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	if o.replay != "" {
		tr, cs, _, err := loadTraceFile(o.replay, arg)
		if err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		m, err := machine.New(cs.Program, tr.Mode)
		if err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		if _, _, err := tr.Replay(m); err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		steps := make([]machine.Step, len(tr.Steps))
		for i, ts := range tr.Steps {
			steps[i], _ = m.ParseID(ts.ID)
		}
		opts.Scenario, opts.Mode, opts.History = model.FromCompiled(cs), tr.Mode, steps
		return opts, nil
	}
	if arg != "" {
		sc, err := model.LoadScenario(arg)
		if err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		opts.Scenario = sc
	}
	return opts, nil
}

// runUI starts the interactive UI on the terminal.
func runUI(args []string, o uiOptions, stdin io.Reader, stdout io.Writer) error {
	opts, err := uiModelOptions(args, o)
	if err != nil {
		return err
	}
	// Ask the terminal for its background before bubbletea owns stdin:
	// asked later, the reply would arrive as keystrokes.
	lipgloss.HasDarkBackground()
	progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithInput(stdin), tea.WithOutput(stdout)}
	if !o.noMouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	if _, err := tea.NewProgram(model.New(opts), progOpts...).Run(); err != nil {
		return &exitError{2, fmt.Sprintf("smpscope: %v", err)}
	}
	return nil
}

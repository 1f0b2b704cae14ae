package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/browser-bridge/browser-bridge/internal/doctor"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// runDoctor checks every link of the chain and says which one is broken
// and how to fix it; it exits 1 when one is.
func runDoctor(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	exe, err := hostBinary()
	if err != nil {
		return err
	}
	r := doctor.Run(ctx, doctor.Options{Layout: layout, Exe: exe, Browsers: paths.Browsers(), Status: doctor.Status(layout)})
	if *asJSON {
		if err := printJSON(r); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(Stdout, "browser-bridge %s (%s)\n", r.Version, r.Binary)
		for _, c := range r.Checks {
			mark := "ok  "
			switch {
			case !c.OK:
				mark = "FAIL"
			case c.Warn:
				mark = "warn"
			}
			fmt.Fprintf(Stdout, "%s %-28s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(Stdout, "     %-28s fix: %s\n", "", c.Fix)
			}
		}
	}
	if !r.OK {
		return &ExitError{Code: 1}
	}
	return nil
}

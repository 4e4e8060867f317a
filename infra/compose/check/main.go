// compose-check loads docker-compose.yml with compose-go, the loader `docker compose` itself uses (issue 23):
// interpolation from the env files named on the command line, normalisation and the consistency checks.
// It prints one line per service (name and image) and exits 1 with the loader's error when the file does
// not load. Built and cached by infra/local/compose-check.sh.
package main

import (
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <docker-compose.yml> [env-file...]")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions(
		[]string{os.Args[1]},
		cli.WithName("tuber"),
		cli.WithOsEnv,
		cli.WithEnvFiles(os.Args[2:]...),
		cli.WithDotEnv,
		cli.WithInterpolation(true),
		cli.WithNormalization(true),
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose-check:", err)
		os.Exit(1)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose-check:", err)
		os.Exit(1)
	}
	names := project.ServiceNames()
	sort.Strings(names)
	for _, name := range names {
		service := project.Services[name]
		fmt.Printf("%s\t%s\n", name, service.Image)
	}
	for _, name := range project.DisabledServiceNames() {
		fmt.Printf("%s\t(disabled by profile)\n", name)
	}
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/discover"
	"github.com/sglint/sglint/internal/projectfiles"
)

// workdirConfig is the configuration of the working directory (--config
// when given), for commands that check no file: explain reads its records.
// Every problem in the file is printed with its line.
func workdirConfig(configFile string, all []*analyzer.Rule, stderr io.Writer) (*config.Config, bool) {
	cfg, err := config.Resolve(configFile, ".", all)
	if err != nil {
		printErrors[config.Errors](stderr, err)
		return nil, false
	}
	return cfg, true
}

// printErrors prints err on stderr, one line a problem when it is a list
// L of them (config.Errors, records.Errors), so each keeps its own line.
func printErrors[L interface {
	~[]E
	error
}, E error](stderr io.Writer, err error) {
	var es L
	if errors.As(err, &es) {
		for _, e := range es {
			fmt.Fprintf(stderr, "sglint: %s\n", e)
		}
		return
	}
	fmt.Fprintf(stderr, "sglint: %v\n", err)
}

// discoverOptions gives a walk each directory's file selection, from the
// configuration its files are checked under (Resolver; see
// projectfiles.Scope); --exclude adds to every directory's, and
// --respect-gitignore, when given, wins everywhere.
func discoverOptions(res *config.Resolver, o *checkOptions) discover.Options {
	var gitignore *bool
	if o.respectGitignore.set {
		gitignore = &o.respectGitignore.value
	}
	opts := projectfiles.Options(res, gitignore)
	opts.Exclude = o.excludes
	return opts
}

// boolFlag is a boolean flag that remembers whether it was given, so that
// the config's value holds unless the command line overrides it.
type boolFlag struct{ set, value bool }

func (b *boolFlag) String() string { return fmt.Sprint(b.value) }

func (b *boolFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "true", "1", "yes":
		b.value = true
	case "false", "0", "no":
		b.value = false
	default:
		return fmt.Errorf("want true or false, got %q", v)
	}
	b.set = true
	return nil
}

func (b *boolFlag) IsBoolFlag() bool { return true }

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/sglint/sglint/internal/didyoumean"
)

const usage = `sglint: static checks for sglang's KV-cache transfer code.

Usage: sglint [flags] [PATH...]   check *.py files under PATH (default .)
       sglint rules | explain RULE|kv-scope|RECORD_ID [PATH...] | version
       sglint records [PATH...]   list error records and their raise sites
       sglint server              the language server, for editors
       sglint completion SHELL    a completion script for bash, zsh or fish

Flags:
  --format FORMAT       full (on a terminal), concise, json, github, sarif
  --select RULES        run only these rules (IDs, prefixes, names, ALL)
  --extend-select RULES add rules to the selection
  --ignore RULES        do not run these rules
  --exclude GLOB        skip matching files and directories (repeatable)
  --config FILE         settings for every file, instead of each file's
                        nearest pyproject.toml [tool.sglint] or sglint.toml
  --respect-gitignore=false  also check what .gitignore ignores
  --records PATH        error records (a .json, .jsonl or a directory)
  --baseline FILE       hide the findings recorded in FILE
  --write-baseline FILE record every current finding in FILE
  --statistics          count findings per rule
  --add-noqa            add "# noqa: RULE" to finding lines (writes files)
  --fix                 apply the safe fixes (unused noqa codes; writes files)
  --stdin-filename PATH read standard input (-) as the file PATH
  --exit-zero           exit 0 even with findings
  --all-files           analyse every file, not only the KV code and callees
  --color WHEN          auto (a terminal, unless NO_COLOR), always, never
  -q, --quiet           print the findings only, without the summary line
  --output-file FILE    write the report to FILE instead of standard output
  --show-files          list the files a run reads and reports on, then stop
  --show-settings       print the configuration used for each PATH, then stop
  -j, --jobs N          parallel workers (default: number of CPUs)
  --no-cache            do not read or write the cache
  --cache-dir DIR       keep the cache in DIR (default: .sglint_cache at the
                        checkout's top, or $SGLINT_CACHE_DIR)
  --stats               print what each stage of the run cost
  --version, -h, --help

Exit status: 0 no findings, 1 findings, 2 usage, config or read error.
Docs: https://github.com/sglint/sglint/tree/main/docs
`

var errHelp = errors.New("help requested")

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// newFlagSet returns a silent flag set: errors are reported by the caller.
func newFlagSet() *flag.FlagSet {
	fl := flag.NewFlagSet("sglint", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Usage = func() {}
	return fl
}

// parseInterspersed parses flags placed before, between or after the
// positional arguments (`sglint src --format json`); after "--" everything
// is positional.
func parseInterspersed(fl *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fl.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, flagError(fl, err)
		}
		rest := fl.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// flagError rewrites the flag package's messages the way the usage spells
// flags (--format, -j), with a suggestion for an unknown one.
func flagError(fl *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fl.VisitAll(func(f *flag.Flag) { names = append(names, dashes(f.Name)) })
		hint := ""
		if s, ok := didyoumean.Closest(dashes(name), names); ok {
			hint = " (did you mean " + s + "?)"
		}
		return fmt.Errorf("unknown flag %s%s", dashes(name), hint)
	}
	return errors.New(flagName().ReplaceAllStringFunc(msg, func(m string) string {
		return m[:strings.IndexByte(m, '-')] + dashes(m[strings.IndexByte(m, '-')+1:])
	}))
}

// flagName is a flag as the flag package names it in its messages.
var flagName = sync.OnceValue(func() *regexp.Regexp { // on a usage error only
	return regexp.MustCompile(`(flag |for |argument: )-[A-Za-z][A-Za-z-]*`)
})

// dashes spells a flag name: -j, --format.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

package cli

import (
	"errors"
	"flag"
	"io"
	"strings"
)

const usage = `sglint: static checks for sglang's KV-cache transfer code.

Usage:
  sglint [flags] [PATH...]        check Python files (default PATH: .)
  sglint check [flags] [PATH...]  the same, for a PATH named like a subcommand
  sglint rules                    list the rules
  sglint explain RULE             print a rule's documentation
  sglint explain RECORD_ID        print an error record's documentation
  sglint records [flags] [PATH...]
                                  list the error records and how many raise
                                  sites each matches under PATH (--sites:
                                  list them; --format json)
  sglint version                  print the version
  sglint server [--no-cache] [-j N]
                                  run the language server on standard input
                                  and output, for editors (docs/editors.md)

Directories are searched for *.py files; files named explicitly are always
checked; - reads one file from standard input.

Flags:
  --format FORMAT     output format: text (default), json, github, sarif
  --select RULES      run only these rules: IDs, ID prefixes (SGL0), names
                      or ALL; comma-separated, repeatable
  --extend-select RULES
                      run these rules on top of the selected ones
  --ignore RULES      do not run these rules (same syntax); the most specific
                      entry of --select and --ignore wins
  --exclude GLOB      skip files and directories matching GLOB (repeatable)
  --config FILE       read settings from FILE (a pyproject.toml's
                      [tool.sglint], or a standalone sglint.toml) instead of
                      the one found by walking up from the first PATH
  --respect-gitignore=false
                      do not skip files that .gitignore ignores
  --records PATH      error records for SGL010 and sglint records: a .json
                      file, a JSON Lines file or a directory (repeatable;
                      added to the config's records)
  --baseline FILE     hide the findings recorded in FILE; report stale entries
  --write-baseline FILE
                      record every current finding in FILE and exit 0
  --statistics        print the number of findings per rule instead
  --add-noqa          add "# noqa: RULES" to the lines of current findings
                      (edits the files; the only mode that writes them)
  --stdin-filename PATH
                      read the source from standard input, as the file PATH
  --exit-zero         exit 0 even when there are findings
  -j, --jobs N        parallel workers (default: number of CPUs)
  --no-cache          do not read or write the cache (.sglint_cache at the
                      project root, or $SGLINT_CACHE_DIR)
  --stats             print the time of each stage of the run to stderr
  --version           print the version
  -h, --help          print this help

Command-line flags override the config file. Exit status: 0 no findings,
1 findings, 2 usage or config error, unreadable path or internal error.
Positions are 1-based lines and columns in Unicode code points.
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
			return nil, err
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

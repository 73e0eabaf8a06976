package cli

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/output"
)

// subcommands are the words `sglint` takes first.
var subcommands = []string{"check", "rules", "explain", "records", "server", "completion", "version", "help"}

// usageFlag matches a flag as the usage text spells it.
func usageFlag() *regexp.Regexp { return regexp.MustCompile(`(?m)^  (?:-[a-z], )?(--[a-z][a-z-]*)`) }

// checkFlags are the check run's long flags, read from the usage text so
// that a new flag is completed once it is documented.
func checkFlags() []string {
	var out []string
	for _, m := range usageFlag().FindAllStringSubmatch(usage, -1) {
		out = append(out, m[1])
	}
	return append(out, "--help")
}

// completion is `sglint completion bash|zsh|fish`: a script that completes
// the subcommands, the flags, the formats, colour modes, rule IDs and
// names (after --select, --ignore, explain) and file names.
func completion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stdout, stderr, fmt.Errorf("completion takes one shell: bash, zsh or fish"))
	}
	var rules []string
	for _, r := range registry() {
		rules = append(rules, r.ID, r.Name)
	}
	w := completionWords{
		subcommands: strings.Join(subcommands, " "),
		flags:       strings.Join(checkFlags(), " "),
		formats:     strings.Join(slices.DeleteFunc(output.Names(), func(s string) bool { return s == "text" }), " "),
		rules:       strings.Join(rules, " "),
	}
	switch args[0] {
	case "bash":
		fmt.Fprintf(stdout, bashCompletion, w.subcommands, w.flags, w.formats, w.rules)
	case "zsh":
		fmt.Fprintf(stdout, zshCompletion, w.subcommands, w.flags, w.formats, w.rules)
	case "fish":
		writeFish(stdout, w)
	default:
		return usageError(stdout, stderr, fmt.Errorf("completion: unknown shell %q: want bash, zsh or fish", args[0]))
	}
	return ExitClean
}

type completionWords struct{ subcommands, flags, formats, rules string }

const bashCompletion = `# sglint completion for bash: eval "$(sglint completion bash)"
_sglint() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
    --format) COMPREPLY=($(compgen -W "%[3]s" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --select|--extend-select|--ignore|explain) COMPREPLY=($(compgen -W "%[4]s kv-scope" -- "$cur")); return ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "%[2]s" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY+=($(compgen -W "%[1]s" -- "$cur"))
    fi
}
complete -o filenames -F _sglint sglint
`

const zshCompletion = `#compdef sglint
# sglint completion for zsh: sglint completion zsh > "${fpath[1]}/_sglint"
_sglint() {
    local -a words_subcommands words_flags
    words_subcommands=(%[1]s)
    words_flags=(%[2]s)
    case $words[CURRENT-1] in
    --format) compadd -- %[3]s; return ;;
    --color) compadd -- auto always never; return ;;
    --select|--extend-select|--ignore|explain) compadd -- %[4]s kv-scope; return ;;
    completion) compadd -- bash zsh fish; return ;;
    esac
    if [[ $PREFIX == -* ]]; then
        compadd -- $words_flags
        return
    fi
    (( CURRENT == 2 )) && compadd -- $words_subcommands
    _files
}
compdef _sglint sglint
`

// writeFish writes fish's completions, one `complete` a flag.
func writeFish(w io.Writer, cw completionWords) {
	fmt.Fprintln(w, "# sglint completion for fish: sglint completion fish > ~/.config/fish/completions/sglint.fish")
	fmt.Fprintf(w, "complete -c sglint -n __fish_use_subcommand -a '%s'\n", cw.subcommands)
	fmt.Fprintln(w, "complete -c sglint -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'")
	fmt.Fprintf(w, "complete -c sglint -n '__fish_seen_subcommand_from explain' -x -a '%s kv-scope'\n", cw.rules)
	for _, f := range strings.Fields(cw.flags) {
		name := strings.TrimPrefix(f, "--")
		switch name {
		case "format":
			fmt.Fprintf(w, "complete -c sglint -l format -x -a '%s'\n", cw.formats)
		case "color":
			fmt.Fprintln(w, "complete -c sglint -l color -x -a 'auto always never'")
		case "select", "extend-select", "ignore":
			fmt.Fprintf(w, "complete -c sglint -l %s -x -a '%s'\n", name, cw.rules)
		default:
			fmt.Fprintf(w, "complete -c sglint -l %s\n", name)
		}
	}
}

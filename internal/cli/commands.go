package cli

import (
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/output"
	"github.com/sglint/sglint/rules/recordraise"
)

// Version is sglint's version; release builds set it with
// -ldflags "-X github.com/sglint/sglint/internal/cli.Version=v1.2.3".
// Otherwise the module version recorded by the Go toolchain is used.
var Version = ""

const informationURI = "https://github.com/sglint/sglint"

// pseudoVersion matches a Go pseudo-version's commit and dirty mark
// (compiled on first use: every run starts, few print their version).
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z.-]*\.)?\d{14}-([0-9a-f]{12})(\+dirty)?$`)
})

func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		// Go stamps a build from a clone with a pseudo-version
		// (v0.0.0-20261206202950-f550f2ae0ca3+dirty): say devel-COMMIT, as
		// for a build without one, and keep tags as they are.
		if m := pseudoVersion().FindStringSubmatch(v); m != nil {
			return "devel-" + m[1] + m[2]
		}
		return v
	}
	// A build from a checkout without a tag: name the commit if recorded.
	rev, dirty := "", ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev != "" {
		return "devel-" + rev + dirty
	}
	return "devel"
}

func tool() output.Tool {
	return output.Tool{Name: "sglint", Version: version(), InformationURI: informationURI}
}

// noArgs parses a subcommand that takes no arguments but -h.
func noArgs(name string, args []string, stdout, stderr io.Writer) (int, bool) {
	rest, err := parseInterspersed(newFlagSet(), args)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("%s takes no arguments, got %q", name, rest[0])
	}
	if err != nil {
		return usageError(stdout, stderr, err), false
	}
	return 0, true
}

func printVersion(args []string, stdout, stderr io.Writer) int {
	if code, ok := noArgs("version", args, stdout, stderr); !ok {
		return code
	}
	fmt.Fprintf(stdout, "sglint %s\n", version())
	return ExitClean
}

// listRules prints a table of every rule.
func listRules(args []string, stdout, stderr io.Writer) int {
	if code, ok := noArgs("rules", args, stdout, stderr); !ok {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tDEFAULT\tRECORD\tTITLE")
	for _, r := range registry() {
		def := "on"
		switch {
		case r.DefaultOff:
			def = "off"
		case r == recordraise.Rule:
			def = "on, needs records" // idle until records are loaded
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, def, orDash(r.Record), r.Title)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "sglint: %v\n", err)
		return ExitError
	}
	return ExitClean
}

// explain prints a rule's Markdown documentation, or an error record's
// (read from the record files of the config and --records).
func explain(args []string, stdout, stderr io.Writer) int {
	var recordFlags pathFlag
	var configFile string
	fl := newFlagSet()
	fl.Var(&recordFlags, "records", "")
	fl.StringVar(&configFile, "config", "", "")
	rest, err := parseInterspersed(fl, args)
	if err == nil && len(rest) == 0 {
		err = fmt.Errorf("explain takes one rule ID or name, or a record id, e.g. 'sglint explain SGL000'")
	}
	if err == nil && len(rest) > 1 && (findRule(rest[0]) != nil || findSection(rest[0]) != nil) {
		err = fmt.Errorf("explain takes one rule ID or name; paths follow a record id only ('sglint explain ID [PATH...]')")
	}
	if err != nil {
		return usageError(stdout, stderr, err)
	}
	doc, code := explainTarget(rest[0], rest[1:], configFile, recordFlags, stderr)
	fmt.Fprint(stdout, doc)
	return code
}

// findRule looks a rule up by ID (any case) or name, or by the start of
// one rule's name (`unchecked-peer`) when no other name starts so.
func findRule(s string) *analyzer.Rule {
	var prefixed []*analyzer.Rule
	for _, r := range registry() {
		if strings.EqualFold(r.ID, s) || r.Name == s {
			return r
		}
		if len(s) >= 4 && strings.HasPrefix(r.Name, s) {
			prefixed = append(prefixed, r)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return nil
}

// sections lists the shared settings sections of the registered rules, in
// rule order.
func sections() []*analyzer.Section {
	var out []*analyzer.Section
	for _, r := range registry() {
		for _, s := range r.Sections {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// findSection looks a shared section up by key.
func findSection(key string) *analyzer.Section {
	for _, s := range sections() {
		if s.Key == key {
			return s
		}
	}
	return nil
}

// sectionDoc is the page `sglint explain <section>` prints.
func sectionDoc(s *analyzer.Section) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s.\n\nRead by:", s.Key, strings.TrimSuffix(s.Title, "."))
	for _, r := range registry() {
		if slices.Contains(r.Sections, s) {
			fmt.Fprintf(&b, " %s", r.ID)
		}
	}
	fmt.Fprintf(&b, ". Configured in [tool.sglint.%s].\n\n", s.Key)
	b.WriteString(strings.TrimRight(s.Doc, "\n"))
	b.WriteString("\n")
	return b.String()
}

// ruleDoc is the page `sglint explain` prints: a heading, the facts, the doc.
func ruleDoc(r *analyzer.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n%s.\n\nSeverity: %s.", r.Name, r.ID, strings.TrimSuffix(r.Title, "."), r.Severity)
	if r.DefaultOff {
		b.WriteString(" Off by default: add it to the default rules with --extend-select " + r.ID + " (or extend-select in the configuration).")
	}
	if r.Record != "" {
		b.WriteString(" Derived from error record " + r.Record)
		if len(r.RecordFields) > 0 {
			b.WriteString(", from its " + joinAnd(r.RecordFields))
		}
		b.WriteString(".")
	}
	b.WriteString("\n\n")
	b.WriteString(strings.TrimRight(r.Doc, "\n"))
	b.WriteString("\n")
	return b.String()
}

// joinAnd joins names as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

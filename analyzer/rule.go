// Package analyzer is the API a rule author reads, in the spirit of
// golang.org/x/tools/go/analysis: a Rule is a value with an identity, a
// doc and a Run function; it sees one file at a time through a Pass (the
// file, its tree and summary, the linked Project, its options and the
// shared Sections) and reports Diagnostics; shared per-file Analyses and
// project-wide values (Project.Shared) are computed once; a Demand says
// which files a project rule reads.
//
// The driver that discovers nothing but runs rules over inputs (loading,
// the cache, the project index, demand-driven selection, sessions) is
// package analyzer/checker, as go/analysis keeps its checker apart. The
// types a driver fills and a rule only reads (File, Project, Pass) have
// constructors for drivers; rules never build them.
package analyzer

import (
	"fmt"
	"regexp"
	"sync"
)

// Severity of a rule's findings.
type Severity int

const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Rule is one check, in the spirit of go/analysis's Analyzer: a value with
// an identity, documentation and a run function.
type Rule struct {
	ID       string   // stable identifier, e.g. "SGL001"
	Name     string   // kebab-case name, e.g. "kv-send-without-readiness-guard"
	Severity Severity // default severity
	Title    string   // one line, shown by `sglint rules` and SARIF shortDescription
	// Doc is Markdown in ruff's shape: What it does / Why is this bad? /
	// Example / Use instead / Known limits.
	Doc string
	// Record is the id of the error record the rule derives from, if any.
	Record string
	// RecordFields are the fields of that record the rule takes its check
	// from (`tryCatchPattern`, `handlingStrategy`, `validationCode`,
	// `tags`), for `sglint explain`.
	RecordFields []string
	// RecordUse says, in sglint's words, what the rule takes from those
	// fields: `sglint explain <record id>` prints it as the derivation.
	RecordUse string
	// DefaultOff rules run only when selected explicitly.
	DefaultOff bool
	// Local rules read nothing but the file they check: its tree, source and
	// summary (not Pass.Project, which is nil for them). They run while the
	// file is loaded, before the project index exists, and their findings
	// depend only on the file's content and the rule's options, which lets
	// the cache keep them when other files change.
	Local bool
	// RelatedIsChain: the findings' related locations walk a call chain
	// (entry first); SARIF shows them as a codeFlow.
	RelatedIsChain bool
	// Requires lists shared analyses the rule reads through Pass.ResultOf.
	Requires []*Analysis
	// Demand, for a project rule, says which files it reads, so that a run
	// parses and models only those (see Demand). A project rule without it
	// makes the run load every file.
	Demand *Demand
	// Sections lists the shared settings tables the rule reads through
	// SectionOf (the KV scope of the send-path rules, say): one table
	// configures every rule that lists it.
	Sections []*Section
	// Options, when set, returns a new pointer to the rule's options struct
	// filled with its defaults. Fields carry `toml:"kebab-name"` tags; the
	// config loader decodes [tool.sglint.rules.<ID>] into such a value and
	// rejects unknown keys and wrong types, so it needs to know no rule by
	// name. If the value has a `Validate() error` method, the loader calls
	// it after decoding. The rule reads the value through Pass.Options.
	Options func() any
	// MovedOptions are option keys the rule once had, with where each
	// lives now ("[tool.sglint.kv-scope] raising-methods"): a config that
	// still sets one is told where it went.
	MovedOptions map[string]string
	// Run inspects pass.File and reports through pass.Report.
	Run func(pass *Pass) error
}

// The identity patterns, compiled on first use: a run validates no rule
// (the registry's test does), and every process would compile them.
var (
	ruleID   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SGL[0-9]{3}$`) })
	ruleName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) })
)

// Validate checks a rule's identity fields; a registry's tests call it.
func (r *Rule) Validate() error {
	switch {
	case !ruleID().MatchString(r.ID):
		return fmt.Errorf("rule id %q is not of the form SGL000", r.ID)
	case !ruleName().MatchString(r.Name):
		return fmt.Errorf("rule %s: name %q is not kebab-case", r.ID, r.Name)
	case r.Title == "" || r.Doc == "":
		return fmt.Errorf("rule %s: title and doc are required", r.ID)
	case r.Run == nil:
		return fmt.Errorf("rule %s: no run function", r.ID)
	}
	return nil
}

// Section is a table of settings that several rules share,
// [tool.sglint.<Key>] in the configuration: what they agree on (which code
// is KV transfer code) is configured once, not per rule. Like Rule.Options,
// Options returns a new pointer to a struct with `toml` tags filled with
// the defaults (and an optional `Validate() error` method); the config
// loader decodes the table into it without knowing the section by name.
type Section struct {
	Key   string // kebab-case table name, e.g. "kv-scope"
	Title string // one line
	// Doc is Markdown: what the settings mean, printed by
	// `sglint explain <Key>`.
	Doc     string
	Options func() any
}

// OptionsIn is the rule's options in a configuration (rule ID -> decoded
// options): the configured value, else the rule's defaults, nil for a
// rule without options.
func (r *Rule) OptionsIn(configured map[string]any) any {
	if v, ok := configured[r.ID]; ok {
		return v
	}
	if r.Options != nil {
		return r.Options()
	}
	return nil
}

// OptionsIn is the section's settings in a configuration (section key ->
// decoded settings): the configured value, else the section's defaults.
func (s *Section) OptionsIn(configured map[string]any) any {
	if v, ok := configured[s.Key]; ok {
		return v
	}
	if s.Options != nil {
		return s.Options()
	}
	return nil
}

// Demand lets the project rules of a run load only the files they read:
// the run first reads every file's bytes and pre-scans them (class headers
// and imports, no parser; see Scan), asks each demand of the selected rules
// for its seed files, loads those (parse, summary, the project index), then
// asks More on the loaded project for the names its analyses would follow
// into modules not loaded yet, loads those modules, and asks again until
// nothing new is asked. Rules that share a demand list the same value, as
// they list a Section. A run whose project rules all have demands loads
// only what they ask for (plus files named explicitly); file-local rules
// then see only those files.
type Demand struct {
	Name string
	// Seeds returns the units (input indexes) to load first.
	Seeds func(s *Scan) []int
	// More returns dotted names (modules, or members of modules) that the
	// analyses on p would read if they were loaded; names already loaded,
	// or outside the project, are ignored.
	//
	// Seeds and More must read only the Scan and p.Index (the summaries),
	// never trees or sources: a run reuses the last run's selection while
	// every pre-scan and the loaded files' summaries are unchanged.
	More func(s *Scan, p *Project) []string
}

// Analysis is a shared, per-file computation (a CFG, an index of facts)
// that rules require; it runs at most once per file and its result is
// reused by every rule, like go/analysis's Requires/ResultOf.
type Analysis struct {
	Name     string
	Requires []*Analysis
	Run      func(pass *Pass) (any, error)
}

package sendpath

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/rules/namepattern"
)

//go:embed scope.md
var scopeDoc string

// Section is [tool.sglint.kv-scope]: what KV transfer code is and where its
// send paths start. Every rule that follows send paths (SGL001, SGL002,
// SGL003, SGL004, SGL010) lists it, so one table scopes them all.
var Section = &analyzer.Section{
	Key:     "kv-scope",
	Title:   "Which code is KV transfer code, and where its KV paths start",
	Doc:     scopeDoc,
	Options: func() any { return DefaultScopeOptions() },
}

// ScopeOptions are the settings of Section.
type ScopeOptions struct {
	// Bases are the KV base classes, by qualified name or a dotted tail of
	// it; their project subclasses at any depth are the KV classes. nil
	// means DefaultBases, an empty list none (then only Entries start send
	// paths).
	Bases []string `toml:"bases"`
	// EntryPatterns are shell patterns (path.Match syntax) on the names of
	// KV class methods that start a send path; nil means DefaultPatterns,
	// an empty list none.
	EntryPatterns []string `toml:"entry-patterns"`
	// Entries are more entry functions, anywhere in the project, by
	// qualified name or any dotted tail of it.
	Entries []string `toml:"entries"`
	// SchedulerBases are the KV bases whose subclasses' SchedulerMethods
	// the scheduler calls; nil means DefaultSchedulerBases.
	SchedulerBases []string `toml:"scheduler-bases"`
	// SchedulerMethods are the names of those methods; nil means
	// DefaultSchedulerMethods, an empty list none.
	SchedulerMethods []string `toml:"scheduler-methods"`
	// ServerBases are the bases of the KV bootstrap servers, whose route
	// handlers are entries; nil means DefaultServerBases.
	ServerBases []string `toml:"server-bases"`
	// RaisingCalls are third-party APIs known to raise ("agent.transfer",
	// "requests.get"): every call of one on a KV path is a failure source
	// (SGL005, SGL006), as a call that KV code guards somewhere is.
	RaisingCalls []string `toml:"raising-calls"`
	// RaisingMethods are scheduler methods whose contract is to raise the
	// request's failure (failure_exception): never reported.
	RaisingMethods []string `toml:"raising-methods"`
	// QueueModules, QueueClasses and QueueMethods find the disaggregation
	// queues whose loops the scheduler runs (shell patterns on module
	// names, class names and method names); nil means the defaults.
	QueueModules []string `toml:"queue-modules"`
	QueueClasses []string `toml:"queue-classes"`
	QueueMethods []string `toml:"queue-methods"`
}

// DefaultScopeOptions are the settings when nothing is configured.
func DefaultScopeOptions() *ScopeOptions {
	return &ScopeOptions{Bases: slices.Clone(DefaultBases), EntryPatterns: slices.Clone(DefaultPatterns),
		SchedulerBases: slices.Clone(DefaultSchedulerBases), SchedulerMethods: slices.Clone(DefaultSchedulerMethods),
		ServerBases: slices.Clone(DefaultServerBases), QueueModules: slices.Clone(DefaultQueueModules),
		QueueClasses: slices.Clone(DefaultQueueClasses), QueueMethods: slices.Clone(DefaultQueueMethods),
		RaisingMethods: slices.Clone(DefaultRaisingMethods)}
}

// Validate rejects patterns path.Match cannot read and empty names.
func (o *ScopeOptions) Validate() error {
	for key, pats := range map[string][]string{"entry-patterns": o.EntryPatterns, "queue-modules": o.QueueModules,
		"queue-classes": o.QueueClasses, "queue-methods": o.QueueMethods} {
		if _, err := namepattern.Compile(pats); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
	}
	for key, names := range map[string][]string{"bases": o.Bases, "entries": o.Entries,
		"scheduler-bases": o.SchedulerBases, "server-bases": o.ServerBases, "raising-calls": o.RaisingCalls,
		"raising-methods": o.RaisingMethods} {
		for _, n := range names {
			if !pyname.IsDotted(n) {
				return fmt.Errorf("%s: %q is not a dotted name (like BaseKVManager or pkg.mod.Class.method)", key, n)
			}
		}
	}
	return nil
}

// Config is the send-path configuration the settings describe.
func (o *ScopeOptions) Config() Config {
	return Config{Patterns: o.EntryPatterns, Entries: o.Entries, Bases: o.Bases,
		SchedulerBases: o.SchedulerBases, SchedulerMethods: o.SchedulerMethods, ServerBases: o.ServerBases,
		RaisingCalls: o.RaisingCalls, RaisingMethods: o.RaisingMethods, QueueModules: o.QueueModules, QueueClasses: o.QueueClasses, QueueMethods: o.QueueMethods}
}

// Of returns the send paths of pass's project under the run's kv-scope
// settings, computed once per project and configuration however many
// files ask.
func Of(pass *analyzer.Pass) *Paths {
	return OfProject(pass.Project, analyzer.SectionOf(pass, Section, DefaultScopeOptions).Config())
}

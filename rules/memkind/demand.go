package memkind

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/rules/sendpath"
)

// Demand is the KV scope's (sendpath.Demand), plus the declarations of the
// attributes passed as memory kinds: a receiver of unknown class is looked
// up by attribute name across the project (attrs.go), so every class that
// declares that name must be loaded for the answer to be the full
// analysis's.
var Demand = &analyzer.Demand{
	Name:  "kv-scope and memory-kind attributes",
	Seeds: sendpath.Demand.Seeds,
}

// The hook reads the rule's options, and the rule lists the demand.
func init() {
	Demand.More = more
	Rule.Demand = Demand
}

func more(sc *analyzer.Scan, proj *analyzer.Project) []string {
	out := sendpath.Demand.More(sc, proj)
	ix := proj.Index
	if ix == nil {
		return out
	}
	sinks := analyzer.ScanOptionsOf(sc, Rule, DefaultOptions).sinkSet()
	cfg := analyzer.ScanSectionOf(sc, sendpath.Section, sendpath.DefaultScopeOptions).Config()
	paths := sendpath.ReachOf(proj, cfg)
	seen := map[string]bool{}
	for _, fn := range paths.Funcs() {
		for _, site := range ix.CallsIn(fn) {
			args := ix.Args(site)
			bound := map[int]bool{}
			for _, cal := range ix.Callees(site) {
				if !cal.Func.Valid() {
					continue
				}
				params := ix.Func(cal.Func).Params
				for ai, pi := range ix.BindArgs(site, cal) {
					if pi >= 0 && pi < len(params) && sinks.Match(params[pi].Name) {
						bound[ai] = true
					}
				}
			}
			for ai, a := range args {
				if !bound[ai] && (a.Keyword == "" || !sinks.Match(a.Keyword)) {
					continue
				}
				if pyname.Parent(a.Path) == "" {
					continue
				}
				attr := pyname.Last(a.Path)
				if seen[attr] {
					continue
				}
				seen[attr] = true
				for _, u := range sc.Units.Declaring(attr) {
					out = append(out, sc.Module(u))
				}
			}
		}
	}
	return out
}

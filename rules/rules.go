// Package rules registers every sglint rule. The engine knows none of them
// by name; the CLI hands this list to checker.Run.
package rules

import (
	"sort"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules/dropped"
	"github.com/sglint/sglint/rules/emptysend"
	"github.com/sglint/sglint/rules/kvescape"
	"github.com/sglint/sglint/rules/kvthread"
	"github.com/sglint/sglint/rules/memkind"
	"github.com/sglint/sglint/rules/peerlookup"
	"github.com/sglint/sglint/rules/peerpublish"
	"github.com/sglint/sglint/rules/readinessguard"
	"github.com/sglint/sglint/rules/recordraise"
	"github.com/sglint/sglint/rules/syntaxerror"
	"github.com/sglint/sglint/rules/unusednoqa"
)

var all = []*analyzer.Rule{
	syntaxerror.Rule,
	peerpublish.Rule,
	peerlookup.Rule,
	readinessguard.Rule,
	memkind.Rule,
	recordraise.Rule,
	kvthread.Rule,
	kvescape.Rule,
	emptysend.Rule,
	dropped.Rule,
	unusednoqa.Rule,
}

// The rules' identities are checked by this package's tests
// (TestRegistry), not at every start.
func init() {
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
}

// All returns the registered rules sorted by ID.
func All() []*analyzer.Rule { return append([]*analyzer.Rule(nil), all...) }

// ByID finds a rule by ID or name.
func ByID(id string) *analyzer.Rule {
	for _, r := range all {
		if r.ID == id || r.Name == id {
			return r
		}
	}
	return nil
}

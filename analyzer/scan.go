package analyzer

import (
	"github.com/sglint/sglint/analyzer/prescan"
	"github.com/sglint/sglint/internal/oncemap"
)

// Scan is what Demand hooks see before anything is parsed: the pre-scan of
// every input (unit i is input i; a unit whose file could not be read has
// a nil File) and the run's settings.
type Scan struct {
	Units    *prescan.Project
	sections map[*Section]any
	rules    map[*Rule]any
	shared   oncemap.Map[any, any] // see Shared
}

// Shared returns the value compute gives for key, computed once per Scan,
// as Project.Shared does for a project: for what several demands' hooks
// derive alike (the KV seeds, which two demands list).
func (sc *Scan) Shared(key any, compute func() any) any { return sc.shared.Get(key, compute) }

// NewScan returns the demands' view of a run, for a driver: units by input
// index, and the run's settings.
func NewScan(units *prescan.Project, sections map[*Section]any, rules map[*Rule]any) *Scan {
	return &Scan{Units: units, sections: sections, rules: rules}
}

// ScanSectionOf returns the settings of section s for the run, like
// SectionOf for a Pass.
func ScanSectionOf[T any](sc *Scan, s *Section, defaults func() *T) *T {
	return settingOr(sc.sections[s], defaults)
}

// ScanOptionsOf returns rule's options for the run, like OptionsOf for a
// Pass.
func ScanOptionsOf[T any](sc *Scan, rule *Rule, defaults func() *T) *T {
	return settingOr(sc.rules[rule], defaults)
}

// UnitOf returns the unit of the module a dotted name lives in: the name
// itself when it is a module, else its longest prefix that is one
// ("pkg.mod.Class.method" lives in "pkg.mod").
func (sc *Scan) UnitOf(dotted string) (int, bool) { return sc.Units.UnitOf(dotted) }

// Module returns the module name of unit i.
func (sc *Scan) Module(i int) string { return sc.Units.Module(i) }

// Len is the number of units.
func (sc *Scan) Len() int { return sc.Units.Len() }

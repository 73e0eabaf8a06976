package checker

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/prescan"
)

// The selection of a demand-driven Session (see Session). A run selects
// once; a session selects again after each change, over the pre-scans it
// keeps of every file, and loads what is newly asked for: an edit that
// adds a KV class, a call into a module not loaded, or a base class
// brings those files in.

// preScan reads a file the selection has not asked for, for its pre-scan
// only: it is parsed if a selection asks for it. A file that cannot be
// read keeps its problem, as a loaded one would.
func (s *Session) preScan(sl *slot) {
	src, prob := readSource(sl.in, s.r.maxSize, newWorkerStats())
	if prob != nil {
		sl.problems = append(sl.problems, *prob)
		sl.loaded = true
		return
	}
	mod, pkg := moduleOf(s.r.root, sl.in.Abs, sl.in.Path)
	sl.pre = scanned{module: mod, pkg: pkg, unit: prescan.Scan(src), ok: true}
}

// scanOf is the demands' view of the slots now: unit i is slot i.
func (s *Session) scanOf() *analyzer.Scan {
	if s.scan != nil {
		return s.scan
	}
	units := make([]prescan.Unit, len(s.slots))
	modules := make([]string, len(s.slots))
	for i, sl := range s.slots {
		if sl.pre.ok {
			units[i] = prescan.Unit{Module: sl.pre.module, IsPackage: sl.pre.pkg, File: sl.pre.unit}
			modules[i] = sl.pre.module
		}
	}
	s.scan = analyzer.NewScan(prescan.NewProject(units), modules, s.r.sections, s.r.ruleOpts)
	return s.scan
}

// grow loads the demands' seeds not loaded yet, then links, asks the
// demands what their analyses would follow, loads that, and links again
// until nothing new is asked (as a run's rounds).
func (s *Session) grow() {
	sc := s.scanOf()
	var want []*slot
	for _, d := range s.demands {
		if d.Seeds == nil {
			continue
		}
		for _, i := range d.Seeds(sc) {
			if i >= 0 && i < len(s.slots) {
				want = append(want, s.slots[i])
			}
		}
	}
	s.loadSlots(want)
	for round := 1; ; round++ {
		s.linkLoaded()
		want = want[:0]
		for _, d := range s.demands {
			if d.More == nil {
				continue
			}
			for _, name := range d.More(sc, s.project) {
				if i, ok := sc.UnitOf(name); ok {
					want = append(want, s.slots[i])
				}
			}
		}
		if s.loadSlots(want) == 0 || round == maxRounds {
			return
		}
	}
}

// loadSlots loads the slots not loaded yet, and counts them.
func (s *Session) loadSlots(slots []*slot) int {
	n := 0
	for _, sl := range slots {
		if !sl.loaded && sl.pre.ok {
			s.loadOne(sl)
			n++
		}
	}
	return n
}

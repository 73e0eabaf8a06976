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
	f, prob := s.r.readInput(sl.in, false, newWorkerStats())
	if prob != nil {
		sl.problems = append(sl.problems, *prob)
		sl.loaded = true
		return
	}
	sl.pre = scannedOf(f, prescan.Scan(f.Src()))
}

// scanOf is the demands' view of the slots now: unit i is slot i.
func (s *Session) scanOf() *analyzer.Scan {
	if s.scan == nil {
		pre := make([]scanned, len(s.slots))
		for i, sl := range s.slots {
			pre[i] = sl.pre
		}
		s.scan = s.r.newScan(pre)
	}
	return s.scan
}

// grow loads the demands' seeds not loaded yet, then links, asks the
// demands what their analyses would follow, loads that, and links again
// until nothing new is asked (as a run's rounds).
func (s *Session) grow() {
	sc := s.scanOf()
	s.loadUnits(seedUnits(sc, s.demands))
	for round := 1; ; round++ {
		s.linkLoaded()
		if s.loadUnits(askedUnits(sc, s.demands, s.project)) == 0 || round == maxRounds {
			return
		}
	}
}

// loadUnits loads the slots of the units not loaded yet, and counts them.
func (s *Session) loadUnits(units []int) int {
	n := 0
	for _, i := range units {
		if sl := s.slots[i]; !sl.loaded && sl.pre.ok {
			s.loadOne(sl, nil)
			n++
		}
	}
	return n
}

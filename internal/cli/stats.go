package cli

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/sglint/sglint/analyzer/checker"
)

// runTimes are the stages of a check timed by the CLI itself.
type runTimes struct {
	start    time.Time
	setup    time.Duration // flags, config, rule selection
	discover time.Duration // walking the paths
	output   time.Duration // filtering, baseline, writing the report
}

// writeStats prints --stats to w: what was loaded, then the wall time of
// each stage of the run with the busy time of its parts (summed over the
// workers, so with -j 2 a part may take up to twice its stage's wall time).
// A run checked in several groups (configurations that set different
// rules or options) shows each group's engine run in turn.
func writeStats(w io.Writer, runs []*checker.Stats, rt *runTimes) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%8.1f ms", float64(d)/1e6) }
	for i, st := range runs {
		pass := ""
		if len(runs) > 1 {
			pass = fmt.Sprintf(" (engine run %d of %d)", i+1, len(runs))
		}
		spliced := ""
		if st.Spliced > 0 {
			spliced = fmt.Sprintf(", %d of them only where edited", st.Spliced)
		}
		fmt.Fprintf(w, "sglint: stats%s: %d files, %.1f MB, %d parsed (%d nodes%s), %d from the cache; -j %d\n",
			pass, st.Files, float64(st.Bytes)/1e6, st.Parsed, st.Nodes, spliced, st.Files-st.Parsed, st.Jobs)
		if i == 0 {
			fmt.Fprintf(w, "  setup     %s   flags, config, rule selection\n", ms(rt.setup))
			fmt.Fprintf(w, "  discover  %s   finding the files\n", ms(rt.discover))
		}
		writeEngineStats(w, st, ms)
	}
	fmt.Fprintf(w, "  output    %s   filters, baseline, report\n", ms(rt.output))
	fmt.Fprintf(w, "  total     %s   peak RSS %s\n", ms(time.Since(rt.start)), peakRSS())
}

// writeEngineStats prints the stages of one engine run.
func writeEngineStats(w io.Writer, st *checker.Stats, ms func(time.Duration) string) {
	switch {
	case st.Plan != "":
		fmt.Fprintf(w, "  demand              the last run's selection of %d files reused (unchanged: %s)\n", st.Files, st.Plan)
	case st.Scanned > 0:
		seeds := ""
		if st.SeedsPlanned {
			seeds = ", from the last run's seeds"
		}
		fmt.Fprintf(w, "  demand              %d files pre-scanned in %s (busy), %d loaded in %d rounds%s\n",
			st.Scanned, ms(st.Prescan), st.Files, st.Rounds, seeds)
	}
	fmt.Fprintf(w, "  load      %s   read %s, parse %s, flatten %s, summarise %s, records %s, noqa %s, pack %s (busy)\n",
		ms(st.LoadWall), ms(st.Read), ms(st.Parse), ms(st.Flatten), ms(st.Summarize), ms(st.Records), ms(st.Noqa), ms(st.Pack))
	if st.Cache {
		fmt.Fprintf(w, "  cache               hash %s, read %s, write %s (busy); %d files' project findings reused\n",
			ms(st.Hash), ms(st.CacheRead), ms(st.CacheWrite), st.ProjectCached)
	}
	fmt.Fprintf(w, "  index     %s   project index (of which decoding cached summaries %s)\n", ms(st.IndexWall), ms(st.Decode))
	fmt.Fprintf(w, "  check     %s   rules %s (busy), of which %d trees unpacked and %d parsed again in %s\n",
		ms(st.CheckWall), ms(st.RulesTotal()), st.Unpacked, st.Reparsed, ms(st.Rebuild))
	ids := slices.SortedFunc(maps.Keys(st.Rules), func(a, b string) int {
		return cmp.Or(cmp.Compare(st.Rules[b], st.Rules[a]), cmp.Compare(a, b))
	})
	for _, id := range ids {
		fmt.Fprintf(w, "    %-7s %s\n", id, ms(st.Rules[id]))
	}
	fmt.Fprintf(w, "  finish    %s   suppressions, sorting\n", ms(st.FinishWall))
}

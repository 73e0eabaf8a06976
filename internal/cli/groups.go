package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/noqa"
	"github.com/sglint/sglint/analyzer/output"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules/recordraise"
	"github.com/sglint/sglint/rules/unusednoqa"
)

// How several configurations meet in one run.
//
// Each file is checked under its own configuration (config.Resolver: the
// nearest one, or --config for all). What a configuration decides per file
// is applied per file: the files a walk selects (excludes and .gitignore,
// through discover.Options.ScopeOf), the rules that report on the file,
// per-file-ignores. What the engine needs for a whole run (rule options,
// the shared sections such as kv-scope, records) may differ between
// configurations: the files are then checked in groups, one engine run a
// group, each over the same project (every file loaded, the other groups'
// files as context), so cross-file facts are the same whatever a file's
// configuration. Files whose configurations select the same rules with the
// same options, sections and records form one group: with one
// configuration, or several that agree, there is one run.

// group is the files checked under one engine setting.
type group struct {
	cfg      *config.Config   // rule options and sections (every config of the group has the same)
	cfgs     []*config.Config // the configurations of its files
	rules    []*analyzer.Rule
	recPaths []string
	recs     *records.Set
	files    map[string]bool // display paths it reports on
}

// grouping is the run's files by configuration and group.
type grouping struct {
	groups   []*group
	configOf map[string]*config.Config // display path of a reported file -> its configuration
	// errs are the problems of the config files of reported files, each
	// once: nothing is checked then, as when --config is broken.
	errs []error
}

// groupInputs gives each reported input its configuration and groups the
// inputs by engine setting, in input order.
func groupInputs(set *inputSet, res *config.Resolver, all []*analyzer.Rule, cli analyzer.Selection, o *checkOptions) (*grouping, error) {
	gs := &grouping{configOf: make(map[string]*config.Config, len(set.inputs))}
	byKey := map[string]*group{}
	keyOf := map[*config.Config]string{}
	// One lookup per directory: a walk gives a directory's files on either
	// side of its subdirectories', so the last one is not enough.
	byDir := map[string]*config.Config{}
	for _, in := range set.inputs {
		if !in.Report {
			continue
		}
		var cfg *config.Config
		switch {
		case in.Abs != "":
			// in.Abs is clean: its directory is what precedes the last
			// separator (filepath.Dir would clean it again, per file).
			dir := in.Abs[:max(strings.LastIndexByte(in.Abs, filepath.Separator), 0)]
			if cfg = byDir[dir]; cfg == nil {
				cfg = res.ForFile(in.Abs)
				byDir[dir] = cfg
			}
		case o.stdinFilename != "":
			cfg = res.ForFile(o.stdinFilename)
		default:
			cfg = res.ForDir(".") // standard input without a name
		}
		gs.configOf[in.Path] = cfg
		key, seen := keyOf[cfg]
		if !seen {
			if err := res.Err(cfg); err != nil {
				gs.errs = append(gs.errs, err)
			}
			rules, err := analyzer.SelectLayers(all, cfg.Selection, cli)
			if err != nil {
				return nil, err
			}
			recPaths := recordPaths(cfg, o.records)
			key = engineKey(rules, cfg, recPaths)
			keyOf[cfg] = key
			if byKey[key] == nil {
				g := &group{cfg: cfg, rules: rules, recPaths: recPaths, files: make(map[string]bool, len(set.inputs)-len(gs.configOf))}
				byKey[key] = g
				gs.groups = append(gs.groups, g)
			}
			if g := byKey[key]; !slices.Contains(g.cfgs, cfg) {
				g.cfgs = append(g.cfgs, cfg)
			}
		}
		byKey[key].files[in.Path] = true
	}
	return gs, nil
}

// engineKey identifies what an engine run depends on beyond the files: the
// rules, each one's options and sections (defaults filled in, so a table
// that spells out the defaults agrees with none), and the records.
func engineKey(rules []*analyzer.Rule, cfg *config.Config, recPaths []string) string {
	var b strings.Builder
	add := func(v any) bool {
		j, err := json.Marshal(v)
		b.Write(j)
		b.WriteByte(0)
		return err == nil
	}
	for _, r := range rules {
		b.WriteString(r.ID)
		ok := add(r.OptionsIn(cfg.RuleOptions))
		for _, s := range r.Sections {
			ok = add(s.OptionsIn(cfg.SectionOptions)) && ok
		}
		if !ok {
			return fmt.Sprintf("%p", cfg) // options json cannot encode: a group of its own
		}
	}
	b.WriteString(strings.Join(recPaths, "\x00"))
	return b.String()
}

// loadGroupRecords loads each group's records, each list of files once.
func loadGroupRecords(gs []*group, stderr io.Writer) bool {
	loaded := map[string]*records.Set{}
	for _, g := range gs {
		key := strings.Join(g.recPaths, "\x00")
		set, ok := loaded[key]
		if !ok {
			if set, ok = loadRecords(g.recPaths, stderr); !ok {
				return false
			}
			loaded[key] = set
		}
		g.recs = set
	}
	return true
}

// checked is what the runs of a check found, merged.
type checked struct {
	diags    []analyzer.Diagnostic
	problems []analyzer.Problem
	files    int
	onlyRead int
	notRun   []output.NotRun
	stats    []*checker.Stats
	byGroup  [][]analyzer.Diagnostic // diags split by group, for the baseline
	noqa     []string                // warnings on suppression comments that suppress nothing
}

// runGroups runs the engine once per group over the whole input set and
// keeps, of each run, what concerns its own files.
func runGroups(set *inputSet, gs *grouping, o *checkOptions, store *cache.Store, all []*analyzer.Rule, stderr io.Writer) *checked {
	out := &checked{}
	seen := map[string]bool{}
	for _, g := range gs.groups {
		inputs := slices.Clone(set.inputs)
		for i := range inputs {
			inputs[i].Report = g.files[inputs[i].Path]
		}
		res := checker.Run(inputs, checker.Options{Rules: g.rules, Jobs: o.jobs, Root: set.root,
			RuleOptions: g.cfg.RuleOptions, SectionOptions: g.cfg.SectionOptions, Records: g.recs, Cache: store,
			Full: o.allFiles})
		out.stats = append(out.stats, res.Stats)
		out.files += res.Files
		out.onlyRead += res.OnlyRead
		for _, p := range res.Problems {
			if !g.files[p.Path] && !p.Internal {
				continue // a context file here: its own run reports it, if anyone asked
			}
			p = namedSkipFails(p, set)
			if !seen[p.String()] {
				seen[p.String()] = true
				out.problems = append(out.problems, p)
			}
		}
		out.noqa = append(out.noqa, invalidNoqa(res.Noqa, all)...)
		diags := res.Diagnostics
		if slices.Contains(g.rules, unusednoqa.Rule) {
			diags = append(diags, unusednoqa.Check(res.Noqa, g.rules, all)...)
		}
		var mine []analyzer.Diagnostic
		for _, d := range diags {
			// A rule may report in a file it does not check (another
			// group's, or context): only the group's own files count.
			if g.files[d.Path] && !gs.configOf[d.Path].PerFileIgnored(d.Path, d.Rule.ID) {
				mine = append(mine, d)
			}
		}
		analyzer.SortDiagnostics(mine)
		out.byGroup = append(out.byGroup, mine)
		out.diags = append(out.diags, mine...)
		for _, nr := range rulesNotRun(g, o) {
			if !slices.ContainsFunc(out.notRun, func(x output.NotRun) bool { return x.Rule == nr.Rule }) {
				out.notRun = append(out.notRun, nr)
			}
		}
	}
	for _, nr := range out.notRun {
		// Selected by name, it was asked for: not running it is an error
		// (the run exits 2), as for any check that cannot be made.
		fmt.Fprintf(stderr, "sglint: %s (%s) cannot run: %s; %s\n", nr.Rule.ID, nr.Rule.Name, nr.Reason, notRunHint)
	}
	analyzer.SortDiagnostics(out.diags)
	return out
}

// notRunHint says how to give SGL010 what it needs.
const notRunHint = "give --records PATH or set records = [...] in [tool.sglint] (docs/records.md)"

// rulesNotRun lists the rules of g that cannot run, when the selection
// names them by ID or name (SGL010 is on by default and quietly idle
// without records; named, it deserves a word).
func rulesNotRun(g *group, o *checkOptions) []output.NotRun {
	if !slices.Contains(g.rules, recordraise.Rule) || g.recs.Len() > 0 {
		return nil
	}
	named := slices.Concat(o.selected, o.extendSelected)
	for _, c := range g.cfgs {
		named = slices.Concat(named, c.Selection.Select, c.Selection.ExtendSelect)
	}
	if !namesRule(named, recordraise.Rule) {
		return nil
	}
	return []output.NotRun{{Rule: recordraise.Rule, Reason: "no records are loaded"}}
}

// namesRule reports whether a selector names r by its ID or name (a prefix
// such as SGL, which every config may hold, does not single it out).
func namesRule(selectors []string, r *analyzer.Rule) bool {
	for _, s := range selectors {
		if strings.EqualFold(s, r.ID) || s == r.Name {
			return true
		}
	}
	return false
}

// ranRules are the rules of every group, in registry order.
func ranRules(gs []*group, all []*analyzer.Rule) []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, r := range all {
		for _, g := range gs {
			if slices.Contains(g.rules, r) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// invalidNoqa warns about each `# noqa:` followed by something other than
// rule codes, in the files reported on: it suppresses nothing, silently
// otherwise. A rule's name gets its code.
func invalidNoqa(sets []*noqa.Set, all []*analyzer.Rule) []string {
	var out []string
	for _, set := range sets {
		for _, d := range set.Directives {
			if !d.Invalid {
				continue
			}
			why := "a rule code must follow the colon, e.g. `# noqa: SGL004`"
			if w := d.Word(); w != "" {
				why = "noqa comments take rule codes, e.g. `# noqa: SGL004`"
				for _, r := range all {
					if r.Name == w {
						why = fmt.Sprintf("noqa comments take rule codes, not names: write `# noqa: %s`", r.ID)
					}
				}
				why += " (ruff and flake8 read these comments too, and flake8 takes any other word for a bare `# noqa` that silences everything)"
			}
			out = append(out, fmt.Sprintf("%s:%d:%d: warning: `%s` suppresses nothing: %s", set.Path, d.Start.Line, d.Start.Column, d.Text, why))
		}
	}
	return out
}

package kvfail

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules/sendpath"
)

// Item is one failure through one of its escapes: what a finding lists.
type Item struct {
	Failure
	Escape sendpath.Escape
}

// Sorted orders items for a message (Rank) and keeps the first item of
// each source.
func Sorted(items []Item) []Item {
	items = slices.Clone(items)
	slices.SortStableFunc(items, func(a, b Item) int { return Rank(a.Failure, b.Failure, a.Escape, b.Escape) })
	seen := map[*Source]bool{}
	out := items[:0]
	for _, it := range items {
		if !seen[it.Source] {
			seen[it.Source] = true
			out = append(out, it)
		}
	}
	return out
}

// List names the first max items for a message reported in file at:
// "line 12 (`raise ...`), loop.py:40 (KeyError from `t[k]`) and 2 more".
func (r *Result) List(at *analyzer.File, items []Item, max int) string {
	var named []string
	for i, it := range items {
		if i == max {
			break
		}
		named = append(named, r.sourceText(at, it))
	}
	list := strings.Join(named, ", ")
	if n := len(items) - len(named); n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	return list
}

// sourceText is a source's line (with its file's name when it is not
// at) and text.
func (r *Result) sourceText(at *analyzer.File, it Item) string {
	s := it.Source
	where := fmt.Sprintf("line %d", s.Line)
	if f := r.Paths.File(s.Func.File); f != nil && f != at {
		where = fmt.Sprintf("%s:%d", shortPath(f.Path), s.Line)
	}
	switch s.Kind {
	case Lookup, Pop, Delete:
		return fmt.Sprintf("%s (KeyError from `%s`)", where, s.Text)
	case Call:
		return fmt.Sprintf("%s (`%s`, which this project guards elsewhere)", where, s.Text)
	}
	return fmt.Sprintf("%s (`%s`)", where, s.Text)
}

// Related are the items' locations, for a finding's related list.
func (r *Result) Related(items []Item) []analyzer.Related {
	var out []analyzer.Related
	for _, it := range items {
		s := it.Source
		msg := "it can fail here"
		if len(it.Escape.Chain) > 1 {
			msg = fmt.Sprintf("it can fail here, in `%s`", r.Paths.ShortName(s.Func))
		}
		if f := r.Paths.File(s.Func.File); f != nil {
			out = append(out, analyzer.RelatedAt(f, s.Node, msg))
		}
	}
	return out
}

// shortPath is a file's path without the directories it shares with
// every backend: its package and name (`common/conn.py`).
func shortPath(p string) string {
	dir, base := path.Split(p)
	if dir == "" {
		return base
	}
	return path.Base(dir) + "/" + base
}

// Package peerpublish is SGL003 peer-published-before-init: a peer object
// stored into a table that transfer threads read, while the function that
// stores it still has initialisation to do on it.
package peerpublish

import (
	_ "embed"
	"fmt"
	"iter"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/peertable"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from.
const Record = "d0bf6111ca6909b6"

// Rule SGL003 peer-published-before-init.
var Rule = &analyzer.Rule{
	ID:           "SGL003",
	Name:         "peer-published-before-init",
	Severity:     analyzer.Warning,
	Title:        "Peer stored in a table that send paths read before it is fully initialised",
	Doc:          doc,
	Record:       Record,
	RecordFields: []string{"validationCode"},
	RecordUse:    "The record's validationCode looks the peer up and then tests its fields: a peer stored where the transfer thread reads it before those fields are set fails that test, which SGL003 reports.",
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Run:          run,
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Model < 0 || ix == nil {
		return nil
	}
	var paths *sendpath.Paths // built on the first store into a table
	views := map[syntax.NodeID]*fnView{}
	// judge reports store st in fn when a send path reads its table and
	// fn initialises the object after the store; via names the publish
	// helper when the store is a call of one.
	judge := func(fn pymodel.FuncRef, st store, tab *peertable.Table, via string) {
		if paths == nil {
			paths = sendpath.Of(pass)
		}
		reader, ok := sendReader(ix, paths, tab)
		if !ok {
			return
		}
		def := ix.Func(fn).Def
		v := views[def]
		if v == nil {
			v = &fnView{ix: ix, t: f.Tree(), fn: fn, def: def}
			views[def] = v
		}
		if s, ok := lateStep(v, st); ok {
			report(pass, paths, st, s, reader, via)
		}
	}
	// FileUses finds the table from the index alone: the tree is parsed
	// again only for a store into one.
	finder := peertable.New(ix)
	for tu := range concat(finder.FileUses(f.Model, pymodel.Mutate, pymodel.MutSetItem),
		finder.FileUses(f.Model, pymodel.Mutate, pymodel.MutSetdefault)) {
		if st, ok := storeOf(f.Tree(), tu.Use, tu.Self); ok {
			judge(tu.Func, st, tu.Table, "")
		}
	}
	// Calls of publish helpers (see helper.go).
	helpers := helpersOf(pass.Project)
	if len(helpers) == 0 {
		return nil
	}
	for _, fn := range ix.FuncsOf(f.Model) {
		self, _ := ix.SelfOf(fn)
		for _, hs := range helperStores(ix, helpers, fn, self) {
			judge(fn, hs.st, hs.h.tab, ix.Func(hs.h.fn).QualName)
		}
	}
	return nil
}

// concat yields the uses of a, then of b.
func concat(a, b iter.Seq[peertable.SelfUse]) iter.Seq[peertable.SelfUse] {
	return func(yield func(peertable.SelfUse) bool) {
		for u := range a {
			if !yield(u) {
				return
			}
		}
		for u := range b {
			if !yield(u) {
				return
			}
		}
	}
}

// sendReader returns a read of the table in a function on a send path,
// for the message: preferably one a transfer thread reaches, then the one
// with the shortest chain from its entry.
func sendReader(ix *pymodel.Index, paths *sendpath.Paths, tab *peertable.Table) (pymodel.UseRef, bool) {
	var best pymodel.UseRef
	bestRank, found := 0, false
	for _, u := range tab.Uses {
		use := ix.Use(u)
		if use.Kind != pymodel.Read || use.Func < 0 {
			continue
		}
		fn := pymodel.FuncRef{File: u.File, Func: use.Func}
		chain := paths.Chain(fn)
		if len(chain) == 0 {
			continue
		}
		rank := len(chain)
		if e, ok := paths.EntryOf(chain[0].Func); !ok || e.Kind != sendpath.Thread {
			rank += 1 << 16
		}
		if !found || rank < bestRank {
			best, bestRank, found = u, rank, true
		}
	}
	return best, found
}

func report(pass *analyzer.Pass, paths *sendpath.Paths, st store, s step, reader pymodel.UseRef, via string) {
	ix := pass.Project.Index
	t := pass.File.Tree()
	readerFn := pymodel.FuncRef{File: reader.File, Func: ix.Use(reader).Func}
	into := "it goes into"
	if via != "" {
		into = fmt.Sprintf("`%s` puts it into", via)
	}
	msg := fmt.Sprintf("`%s` is published before it is fully initialised: "+into+" `self.%s`, "+
		"which send path `%s` reads from another thread, and then %s; "+
		"a transfer in between, or after that step raises, finds a half-built peer (record %s). "+
		"Prepare `%s` completely first and store it last, removing it again if a step fails",
		st.obj, st.table, paths.ShortName(readerFn), s.what, Record, st.obj)
	related := []analyzer.Related{analyzer.RelatedAt(pass.File, s.node, "initialised further here, after it is published")}
	if f := paths.File(reader.File); f != nil {
		at := ix.Use(reader).At
		related = append(related, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
			Message: fmt.Sprintf("send path `%s` reads the table", paths.ShortName(readerFn))})
	}
	pass.Report(analyzer.Diagnostic{
		Start:    t.Start(st.node),
		End:      t.End(st.node),
		Message:  msg,
		Function: syntax.QualName(t, st.node),
		Related:  related,
	})
}

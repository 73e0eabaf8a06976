package peerlookup

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// leak says how a KeyError raised on a send path gets out of it without a
// handler that fails only the current request.
type leak struct {
	entry sendpath.Entry // the outermost entry it leaves
	// chain runs from the entry to the function holding the subscript;
	// nil when the subscript is in the entry itself.
	chain []pymodel.Step
	// reraise is the first handler on the way that caught it and raised
	// again; outsideLoop a thread target's handler that catches it only
	// after the request loop is left. Nil when there is none.
	reraise, outsideLoop *analyzer.Related
	// exits: the reraise handler ends the process (`os._exit(1)`) rather
	// than raising.
	exits bool
	// leavesLoop: outsideLoop is a handler inside the request loop that
	// returns or breaks out of it.
	leavesLoop bool
}

// leakOf returns how a KeyError raised by subscript sub in fn leaves the
// send paths, or nil when every way out fails only the current request
// (or an exclusion fact holds on the way).
func leakOf(paths *sendpath.Paths, fn pymodel.FuncRef, sub syntax.NodeID, table, key facts.Path) *leak {
	// An executor task whose Future is read goes on through its joins
	// (Escapes); any other outermost entry is judged here.
	if e, ok := paths.Terminal(fn); ok {
		if l := direct(paths, e, sub); l != nil {
			return l
		}
	}
	site := sendpath.RaiseSite{Func: fn, Node: sub, Exc: "KeyError",
		Excluded: []facts.Fact{facts.InFact(table, key)}}
	for _, esc := range paths.Escapes(site) {
		if esc.CallerHandles {
			continue // every project caller of the entry handles it
		}
		l := &leak{entry: esc.Entry, chain: esc.Chain}
		l.reraise, l.exits = reraiseOn(paths, esc.Chain, fn, sub)
		return l
	}
	return nil
}

// direct judges a subscript in an outermost entry itself: the entry's own
// handlers and, for a send entry, its project callers' (sendpath.Handled).
func direct(paths *sendpath.Paths, e sendpath.Entry, sub syntax.NodeID) *leak {
	if paths.Handled(e.Func, sub, "KeyError") {
		return nil
	}
	if e.Kind != sendpath.Thread && e.Kind != sendpath.Executor && paths.CallersHandle(e.Func, "KeyError") {
		return nil
	}
	l := &leak{entry: e}
	f := paths.File(e.Func.File)
	if f == nil {
		return l
	}
	// Say which handler lets it through, for the message.
	for _, h := range cfg.Handlers(f.Tree(), sub, "KeyError") {
		if h.RaisesAlways {
			if l.reraise == nil {
				l.reraise, l.exits = reraiseRelated(f, h)
			}
			continue
		}
		// Not Handled, yet it does not always raise: a thread's handler
		// outside its request loop, or one that leaves it.
		msg := "this handler runs only after the request loop is left"
		if h.LeavesAlways || h.BreaksAlways {
			if def := paths.Index().Func(e.Func).Def; paths.InsideLoop(f.Tree(), h.Try, def) {
				msg, l.leavesLoop = "this handler leaves the request loop", true
			}
		}
		r := analyzer.RelatedAt(f, h.Clause, msg)
		l.outsideLoop = &r
		break
	}
	return l
}

// reraiseOn finds, for the message, the innermost handler that catches
// the KeyError and raises again: around the subscript, then around each
// call of the chain from the inside out.
func reraiseOn(paths *sendpath.Paths, chain []pymodel.Step, fn pymodel.FuncRef, sub syntax.NodeID) (*analyzer.Related, bool) {
	ix := paths.Index()
	at := func(file int32, n syntax.NodeID) (*analyzer.Related, bool) {
		f := paths.File(file)
		if f == nil {
			return nil, false
		}
		for _, h := range cfg.Handlers(f.Tree(), n, "KeyError") {
			if h.RaisesAlways {
				return reraiseRelated(f, h)
			}
		}
		return nil, false
	}
	if r, exits := at(fn.File, sub); r != nil {
		return r, exits
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if st := chain[i]; st.Site.File >= 0 {
			if r, exits := at(st.Site.File, ix.Call(st.Site).At.Node); r != nil {
				return r, exits
			}
		}
	}
	return nil, false
}

// reraiseRelated points at a handler that always raises again, or ends
// the process on every path (`sys.exit(...)`, `os._exit(...)`), and says
// which.
func reraiseRelated(f *analyzer.File, h cfg.Catch) (*analyzer.Related, bool) {
	if h.ExitsAlways {
		r := analyzer.RelatedAt(f, h.Clause, "this handler ends the process")
		return &r, true
	}
	r := analyzer.RelatedAt(f, h.Clause, "this handler raises again")
	return &r, false
}

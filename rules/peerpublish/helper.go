package peerpublish

import (
	"slices"
	"sync"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/peertable"
)

// A publish helper stores one of its parameters into a peer table
// (`def _publish(self, name, peer): self.peers[name] = peer`); the caller
// that passes a peer to it and initialises the peer after the call
// publishes it half-built, the same as a store written in the caller.

// helper is a function that stores parameter param into table tab.
type helper struct {
	fn    pymodel.FuncRef
	param int // index into the function's Params
	table string
	tab   *peertable.Table
	store syntax.NodeID // the store, in fn's file
}

type helpersKey struct{}

type helperSet struct {
	once sync.Once
	by   map[pymodel.FuncRef][]helper
}

// helpersOf finds the project's publish helpers, once per project.
func helpersOf(proj *analyzer.Project) map[pymodel.FuncRef][]helper {
	hs := proj.Shared(helpersKey{}, func() any { return &helperSet{} }).(*helperSet)
	hs.once.Do(func() {
		hs.by = map[pymodel.FuncRef][]helper{}
		ix := proj.Index
		finder := peertable.New(ix)
		for fi := range ix.Files {
			f := proj.ModelFile(int32(fi))
			if f == nil {
				continue
			}
			var t *syntax.Tree
			for tu := range concat(finder.FileUses(int32(fi), pymodel.Mutate, pymodel.MutSetItem),
				finder.FileUses(int32(fi), pymodel.Mutate, pymodel.MutSetdefault)) {
				fn := ix.Func(tu.Func)
				pi := slices.IndexFunc(fn.Params, func(p pymodel.Param) bool { return p.Name != tu.Self })
				if pi < 0 {
					continue // no parameter besides self: nothing passed in
				}
				if t == nil {
					t = f.Tree()
				}
				st, ok := storeOf(t, tu.Use, tu.Self)
				if !ok || st.path != "" {
					continue
				}
				for i, p := range fn.Params {
					if p.Name == st.obj && p.Name != tu.Self && p.Kind == pymodel.Positional {
						hs.by[tu.Func] = append(hs.by[tu.Func], helper{fn: tu.Func, param: i, table: st.table, tab: tu.Table, store: st.node})
					}
				}
			}
		}
	})
	return hs.by
}

// helperStores turns the calls of fn into publish helpers into stores in
// fn: the object is the name passed for the stored parameter, the store
// node the call.
func helperStores(ix *pymodel.Index, helpers map[pymodel.FuncRef][]helper, fn pymodel.FuncRef, self string) []helperStore {
	var out []helperStore
	for _, site := range ix.CallsIn(fn) {
		args := ix.Args(site)
		for _, cal := range ix.Callees(site) {
			hs := helpers[cal.Func]
			if len(hs) == 0 || cal.Virtual {
				continue
			}
			bind := ix.BindArgs(site, cal)
			for _, h := range hs {
				for ai, a := range args {
					if ai < len(bind) && bind[ai] == h.param && a.Path != "" && a.Path != self && !containsDot(a.Path) {
						out = append(out, helperStore{h: h, site: site,
							st: store{node: ix.Call(site).At.Node, table: h.table, obj: a.Path, self: self}})
					}
				}
			}
		}
	}
	return out
}

// helperStore is a call of a publish helper, as a store in its caller.
type helperStore struct {
	h    helper
	site pymodel.CallSite
	st   store
}

func containsDot(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return true
		}
	}
	return false
}

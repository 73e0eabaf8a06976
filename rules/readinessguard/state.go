package readinessguard

import (
	"github.com/sglint/sglint/analyzer/pymodel"
)

// stateKind says how registration state starts out.
type stateKind uint8

const (
	emptyList stateKind = iota + 1 // [], list(), (), deque(): filled by registration
	noneYet                        // None: bound to a value by a later method
)

// state is one registration-state attribute of a class.
type state struct {
	Attr string // the attribute name under self: "kv_mem_descs"
	Kind stateKind
	Init pymodel.UseRef // the initialising assignment (File -1 for a class field)
	Fill pymodel.UseRef // the first place it is filled
}

// fillOps are the mutations that put something in a list.
var fillOps = map[pymodel.UseOp]bool{
	pymodel.MutAppend: true, pymodel.MutExtend: true, pymodel.MutInsert: true,
	pymodel.MutSetItem: true, pymodel.MutAugAssign: true,
}

// stateOf decides whether attribute attr of instances of class c is
// registration state: initialised to an empty list or tuple, or to None,
// in `__init__` (or as a class field), and filled in some method of the
// class or its project bases — by a list mutation, or by binding another
// value outside `__init__`. Dicts and sets are keyed tables (SGL003 and
// SGL004), not registration lists.
func stateOf(ix *pymodel.Index, c pymodel.ClassRef, attr string) (state, bool) {
	st := state{Attr: attr, Init: pymodel.UseRef{File: -1, Use: -1}, Fill: pymodel.UseRef{File: -1, Use: -1}}
	for _, b := range ix.MRO(c) {
		if b.External() {
			continue
		}
		for _, fld := range ix.Class(b.Class).Fields {
			if fld.Name == attr && !fld.ClassVar && st.Kind == 0 {
				st.Kind = initKind(fld.Value)
			}
		}
	}
	filled := false
	for _, u := range ix.SelfUses(c, attr) {
		use := ix.Use(u)
		if use.Path != attr {
			continue
		}
		fn := ix.Func(pymodel.FuncRef{File: u.File, Func: use.Func})
		inInit := fn.Name == "__init__"
		switch use.Kind {
		case pymodel.Assign:
			if k := initKind(use.Value); k != 0 {
				if inInit && st.Init.File < 0 {
					st.Kind, st.Init = k, u
				}
				continue
			}
			if !inInit && !filled {
				filled, st.Fill = true, u
			}
		case pymodel.Mutate:
			if fillOps[use.Op] && !filled {
				filled, st.Fill = true, u
			}
		}
	}
	return st, st.Kind != 0 && filled
}

func initKind(v pymodel.ValueKind) stateKind {
	switch v {
	case pymodel.ValueEmptyList, pymodel.ValueEmptyTuple:
		return emptyList
	case pymodel.ValueNone:
		return noneYet
	}
	return 0
}

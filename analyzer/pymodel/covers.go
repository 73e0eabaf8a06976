package pymodel

import (
	"strings"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Key covers are an invariant between the dict attributes of a class: a
// table T covers a table S when every key ever added to S is also added
// to T, and T never loses a key. Then `k in self.S` implies
// `k in self.T` (facts.Options.KeyCovers). Connection code keeps such
// tables in step: a socket cache and the send locks of its sockets, where
// the function that opens a socket returns early for a cached one, and
// only the path that opens a new socket adds its lock.
//
// Decided structurally, over the methods of the class and its project
// bases:
//   - T is bound only in `__init__` (or the class body), to an empty dict,
//     and nothing deletes, pops or clears its keys;
//   - S is bound only in `__init__`, to an empty dict, and keys are added
//     to it only by `S[k] = v` or `S.setdefault(k, ...)`, each in a function
//     that also adds the same key (the same expression) to T the same way.
//
// A function that adds to S on one branch and to T on another is taken to
// keep them in step (the rules prefer missing a finding to inventing one).

// tableUse sums up how a class uses one dict attribute.
type tableUse struct {
	emptyInit bool // bound to {} in __init__ or the class body
	rebound   bool // bound elsewhere, or to something else
	loses     bool // del / pop / popitem / clear
	otherAdd  bool // keys added another way (update, |=, ...)
	// adds are the (function, key text) pairs of `t[k] = v` and
	// `t.setdefault(k, ...)`.
	adds []tableAdd
}

type tableAdd struct {
	fn  FuncRef
	key string
}

// covers returns the key covers of the tables of instances of c: S -> the
// tables covering it.
func (fl *Flow) covers(c ClassRef) map[string][]string {
	return fl.coverMemos.Get(c, func() map[string][]string { return fl.computeCovers(c) })
}

func (fl *Flow) computeCovers(c ClassRef) map[string][]string {
	ix := fl.ix
	tables := map[string]*tableUse{}
	var names []string
	for _, p := range ix.SelfPaths(c) {
		if strings.ContainsAny(p, ".[") {
			continue
		}
		tu, ok := fl.tableUse(c, p)
		if ok {
			tables[p] = tu
			names = append(names, p)
		}
	}
	var out map[string][]string
	for _, s := range names {
		su := tables[s]
		if su.rebound || su.otherAdd || len(su.adds) == 0 {
			continue
		}
		for _, t := range names {
			tu := tables[t]
			if t == s || tu.rebound || tu.loses || !addsAlongside(su.adds, tu.adds) {
				continue
			}
			if out == nil {
				out = map[string][]string{}
			}
			out[s] = append(out[s], t)
		}
	}
	return out
}

// addsAlongside: each add to S is matched by an add of the same key to T
// in the same function.
func addsAlongside(s, t []tableAdd) bool {
	for _, a := range s {
		found := false
		for _, b := range t {
			if a.fn == b.fn && a.key == b.key {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// tableUse reads how c uses attribute name; false when it is no dict
// table (never bound to an empty dict).
func (fl *Flow) tableUse(c ClassRef, name string) (*tableUse, bool) {
	ix := fl.ix
	tu := &tableUse{}
	for _, b := range ix.MRO(c) {
		if b.External() {
			continue
		}
		for _, fld := range ix.Class(b.Class).Fields {
			if fld.Name == name && !fld.ClassVar {
				if fld.Value == ValueEmptyDict {
					tu.emptyInit = true
				} else {
					tu.rebound = true
				}
			}
		}
	}
	for _, u := range ix.SelfUses(c, name) {
		use := ix.Use(u)
		if use.Path != name {
			continue
		}
		fn := FuncRef{File: u.File, Func: use.Func}
		switch use.Kind {
		case Assign:
			if ix.Func(fn).Name == "__init__" && use.Value == ValueEmptyDict {
				tu.emptyInit = true
			} else {
				tu.rebound = true
			}
		case Delete:
			tu.rebound = true
		case Mutate:
			switch use.Op {
			case MutSetItem, MutSetdefault:
				key, ok := fl.addedKey(fn.File, use.At.Node, use.Op)
				if !ok {
					tu.otherAdd = true
					continue
				}
				tu.adds = append(tu.adds, tableAdd{fn: fn, key: key})
			case MutDelItem, MutPop, MutPopitem, MutClear, MutRemove, MutDiscard:
				tu.loses = true
			default:
				tu.otherAdd = true
			}
		}
	}
	return tu, tu.emptyInit
}

// addedKey is the text of the key that `t[k] = v` or `t.setdefault(k,
// ...)` adds, for n the node of `t`.
func (fl *Flow) addedKey(file int32, n syntax.NodeID, op UseOp) (string, bool) {
	t := fl.tree(file)
	if t == nil || n < 0 || int(n) >= t.Len() {
		return "", false
	}
	p := t.Parent(n)
	switch op {
	case MutSetItem:
		if t.Kind(p) != syntax.Subscript || t.FieldOf(n) != syntax.FValue {
			return "", false
		}
		var key syntax.NodeID = syntax.NoNode
		for k := range t.FieldAll(p, syntax.FSubscript) {
			if key != syntax.NoNode {
				return "", false // t[a, b]
			}
			key = k
		}
		if key == syntax.NoNode {
			return "", false
		}
		return t.Text(key), true
	case MutSetdefault:
		// The use is recorded at `t.setdefault` (or at `t`).
		call := p
		if t.Kind(call) == syntax.Attribute {
			call = t.Parent(call)
		}
		if t.Kind(call) != syntax.Call {
			return "", false
		}
		args := t.Field(call, syntax.FArguments)
		if args == syntax.NoNode {
			return "", false
		}
		first := t.NamedChild(args, 0)
		if first == syntax.NoNode || t.Kind(first) == syntax.KeywordArgument {
			return "", false
		}
		return t.Text(first), true
	}
	return "", false
}

// keyCovers is facts.Options.KeyCovers for function fn: the covers of the
// class holding the table, self's (`self.socks`) or that of a typed
// attribute on the way (`self.kv_mgr.socks`), in fn's names.
func (fl *Flow) keyCovers(fn FuncRef) func(facts.Path) []facts.Path {
	self, c := fl.ix.SelfOf(fn)
	if self == "" || !c.Valid() {
		return nil
	}
	return func(table facts.Path) []facts.Path {
		rest, ok := strings.CutPrefix(string(table), self+".")
		if !ok || strings.ContainsRune(rest, '[') {
			return nil
		}
		owner, attr, prefix := c, rest, self
		if strings.Contains(rest, ".") {
			if owner, attr, ok = fl.ix.OwnerOf(fn, string(table)); !ok {
				return nil
			}
			prefix = self + "." + pyname.Parent(rest)
		}
		var out []facts.Path
		for _, t := range fl.covers(owner)[attr] {
			out = append(out, facts.Path(prefix+"."+t))
		}
		return out
	}
}

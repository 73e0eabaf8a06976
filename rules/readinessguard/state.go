package readinessguard

import (
	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/internal/oncemap"
	"github.com/sglint/sglint/rules/namepattern"
	"github.com/sglint/sglint/rules/sendpath"
)

// stateKind says how registration state starts out.
type stateKind uint8

const (
	emptyList stateKind = iota + 1 // [], list(), (), deque(): filled by registration
	noneYet                        // None: bound to a value by a later method
	fromArgs                       // a list of the KV args the code tests for emptiness (kvargs.go)
)

// noUse marks a state with no such place.
var noUse = pymodel.UseRef{File: -1, Use: -1}

// state is one attribute of a class that a send path must not use empty:
// registration state (an attribute filled by registration) or, for kind
// fromArgs, a list taken from the KV args.
type state struct {
	Attr string // the attribute path under self: "kv_mem_descs", "kv_args.kv_data_ptrs"
	Kind stateKind
	Init pymodel.UseRef // the initialising assignment; noUse for a class field or fromArgs state
	Fill pymodel.UseRef // the first place it is filled; noUse for fromArgs state
	// Evidence is where the code tests fromArgs state for emptiness.
	// Handler is the function that makes that test.
	Evidence analyzer.Related
	Handler  string
}

// fillOps are the mutations that put something in a list.
var fillOps = map[pymodel.UseOp]bool{
	pymodel.MutAppend: true, pymodel.MutExtend: true, pymodel.MutInsert: true,
	pymodel.MutSetItem: true, pymodel.MutAugAssign: true,
}

// stateOf decides whether attribute attr of instances of class c is
// registration state: initialised to an empty list or tuple, or to None,
// in `__init__` (or as a class field), and filled by registration of local
// buffers in some method of the class or its project bases — by a list
// mutation, or by binding another value outside `__init__`, in a function
// that registers (see registers). Dicts and sets are keyed tables (SGL003
// and SGL004), not registration lists; a list that a method merely appends
// to (a queue of workers, a list of pending requests) is not state.
func stateOf(ix *pymodel.Index, c pymodel.ClassRef, attr string, regs *registrations) (state, bool) {
	st := state{Attr: attr, Init: noUse, Fill: noUse}
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
			if !inInit && !filled && regs.registers(pymodel.FuncRef{File: u.File, Func: use.Func}) {
				filled, st.Fill = true, u
			}
		case pymodel.Mutate:
			if fillOps[use.Op] && !filled && regs.registers(pymodel.FuncRef{File: u.File, Func: use.Func}) {
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

// DefaultRegistrationCalls are the names (shell patterns) of registration
// functions when none are configured: sglang's engines register local
// buffers with register_memory, batch_register, register, and the managers
// wrap them in register_buffer_to_engine, _register_local_buffers and the
// like.
var DefaultRegistrationCalls = []string{"*regist*"}

// registrations decides which functions register local buffers, once per
// function.
type registrations struct {
	ix   *pymodel.Index
	pats *namepattern.Set
	memo oncemap.Map[pymodel.FuncRef, bool] // shared by every goroutine of the rule (sharedChecker)
}

func newRegistrations(ix *pymodel.Index, patterns []string) *registrations {
	pats, _ := namepattern.Compile(patterns) // validated with the options
	return &registrations{ix: ix, pats: pats}
}

// registers reports a function that registers local buffers: it (or a
// function it is nested in) is named like registration
// (`_register_local_buffers`), or it calls a registration function on
// another object (`self.engine.register_memory(...)`,
// `engine.batch_register(...)`). A call on its own self
// (`self.register_buffer_to_engine()`) does not make a constructor a
// registration step: the callee is one, for what it fills itself.
func (r *registrations) registers(fn pymodel.FuncRef) bool {
	return r.memo.Get(fn, func() bool { return r.compute(fn) })
}

func (r *registrations) compute(fn pymodel.FuncRef) bool {
	ix := r.ix
	s := ix.Summary(fn.File)
	for g := fn.Func; g >= 0 && int(g) < len(s.Functions); g = s.Functions[g].Parent {
		if r.pats.Match(s.Functions[g].Name) {
			return true
		}
	}
	self := sendpath.SelfName(ix, fn)
	for _, site := range ix.CallsIn(fn) {
		c := ix.Call(site)
		if !r.pats.Match(c.Name) {
			continue
		}
		if c.Kind == pymodel.RefAttr && self != "" && c.Recv == self {
			continue
		}
		return true
	}
	return false
}

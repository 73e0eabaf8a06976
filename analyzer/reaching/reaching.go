// Package reaching computes reaching definitions of the local names of one
// scope over its cfg.Graph: for a use of a name, which bindings of that
// name (parameters, assignments, loop targets, ...) may have produced the
// value it reads. It is the may-analysis that package facts, a
// must-analysis, does not answer: "kind is None on some path" is "a
// binding `kind = None` reaches here", while facts says what holds on
// every path.
//
// Choices, documented because rules depend on them:
//   - Only plain names are tracked; `self.a` and `t[k]` are not bindings.
//   - A name is local when the scope binds it anywhere and does not declare
//     it global or nonlocal, as in Python. Parameters are bound at entry.
//   - An implicit exception (cfg.Exception edge) may occur before any node
//     of its block completes, so the handler sees the union of the states
//     before each node: `x = None; try: x = f() except E: ...` reaches the
//     handler with both bindings possible when the try body binds other
//     things after x, and with `x = None` alone when `x = f()` is the only
//     node (f raised, so x was not rebound).
//   - Comprehension variables, nested functions and lambdas are their own
//     scopes and are not looked into.
package reaching

import (
	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Kind says how a definition binds its name.
type Kind uint8

const (
	Param   Kind = iota + 1 // a parameter, bound when the function starts
	Assign                  // name = value (also annotated, chained, walrus)
	Augment                 // name op= value
	Unpack                  // a target inside a tuple or list pattern
	Loop                    // a for-loop target
	As                      // with ... as name, except ... as name
	Import                  // import name, from m import name
	Define                  // def name / class name
	Delete                  // del name (unbinds it)
	Capture                 // a name captured by a match pattern
)

var kindNames = [...]string{
	Param: "param", Assign: "assign", Augment: "augment", Unpack: "unpack", Loop: "loop",
	As: "as", Import: "import", Define: "define", Delete: "delete", Capture: "capture",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "?"
}

// Def is one binding of a name.
type Def struct {
	Name string
	Kind Kind
	// Target is the identifier bound (the parameter's name for Param).
	Target syntax.NodeID
	// Value is the expression whose value the name receives: the right
	// side of an assignment or walrus, the default of a parameter (which
	// is only its value when the caller passes nothing); NoNode when the
	// value is not a single expression (unpacking, loops, imports, ...).
	Value syntax.NodeID
	// Param is the parameter node (identifier, typed or default parameter)
	// for Param definitions, NoNode otherwise.
	Param syntax.NodeID
}

// Result holds the reaching definitions of one graph. It is immutable and
// safe for concurrent queries.
type Result struct {
	g      *cfg.Graph
	defs   []Def
	byName map[string][]int32
	local  map[string]bool
	// items[k] are the definitions made by global item k, in order;
	// blockItem[b] is the global index of block b's first item.
	items     [][]int32
	blockItem []int32
	w         int
	in        [][]uint64
	opts      Options
}

// Defs are all definitions of the graph, parameters first, then in the
// order their nodes appear in the blocks.
func (r *Result) Defs() []Def { return r.defs }

// Def returns definition i.
func (r *Result) Def(i int32) *Def { return &r.defs[i] }

// IsLocal reports whether name is local to the graph's scope.
func (r *Result) IsLocal(name string) bool { return r.local[name] }

// Graph is the graph the result was computed on.
func (r *Result) Graph() *cfg.Graph { return r.g }

// Options tune AnalyzeWith.
type Options struct {
	// Cut, when set, names the local names whose bindings stop flowing
	// along edge i of block b (e = g.Succs(b)[i]): those the edge's
	// condition proves not None, say, when the question is "which
	// None-valued bindings may reach here". It is called once for each edge
	// that has a condition.
	Cut func(b cfg.BlockID, i int, e cfg.Edge) []string
}

// Analyze computes the reaching definitions of g's local names.
func Analyze(g *cfg.Graph) *Result { return AnalyzeWith(g, Options{}) }

// AnalyzeWith is Analyze with options.
func AnalyzeWith(g *cfg.Graph, opts Options) *Result {
	r := &Result{g: g, byName: map[string][]int32{}, local: map[string]bool{}, opts: opts}
	c := collector{r: r, t: g.Tree}
	c.params()
	c.items()
	nonlocal := c.declaredNonLocal()
	for _, d := range r.defs {
		if !nonlocal[d.Name] {
			r.local[d.Name] = true
		}
	}
	r.solve()
	return r
}

// Reaching returns the definitions of name that may reach the point just
// before n is evaluated (for a node inside a larger block node, before
// that node), in increasing order. It is empty when name is not local, or
// n is not evaluated by the graph or cannot be reached.
func (r *Result) Reaching(n syntax.NodeID, name string) []int32 {
	if !r.local[name] || r.w == 0 {
		return nil
	}
	acc := make([]uint64, r.w)
	st := make([]uint64, r.w)
	for _, s := range r.g.Locate(n) {
		if !r.g.Reachable(s.Block) {
			continue
		}
		copy(st, r.in[s.Block])
		first := r.blockItem[s.Block]
		for k := first; k < first+s.Index; k++ {
			r.apply(st, k)
		}
		for i := range acc {
			acc[i] |= st[i]
		}
	}
	var out []int32
	for _, d := range r.byName[name] {
		if has(acc, d) {
			out = append(out, d)
		}
	}
	return out
}

func has(s []uint64, i int32) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func set(s []uint64, i int32)      { s[i>>6] |= 1 << (i & 63) }

// apply runs item k's definitions on state s.
func (r *Result) apply(s []uint64, k int32) {
	for _, d := range r.items[k] {
		for _, o := range r.byName[r.defs[d].Name] {
			s[o>>6] &^= 1 << (o & 63)
		}
		set(s, d)
	}
}

// solve iterates the block states to a fixpoint (a union over
// predecessors, in reverse postorder).
func (r *Result) solve() {
	g := r.g
	r.w = (len(r.defs) + 63) / 64
	if r.w == 0 {
		return
	}
	r.in = make([][]uint64, len(g.Blocks))
	for b := range r.in {
		r.in[b] = make([]uint64, r.w)
	}
	for i, d := range r.defs {
		if d.Kind == Param {
			set(r.in[cfg.Entry], int32(i))
		}
	}
	cuts := r.cutMasks()
	out := make([]uint64, r.w)
	exc := make([]uint64, r.w)
	cut := make([]uint64, r.w)
	for changed := true; changed; {
		changed = false
		for _, b := range g.RPO() {
			copy(out, r.in[b])
			copy(exc, out)
			first, last := r.blockItem[b], r.blockItem[b+1]
			for k := first; k < last; k++ {
				r.apply(out, k)
				if k+1 < last {
					for i := range exc {
						exc[i] |= out[i]
					}
				}
			}
			for i, e := range g.Succs(b) {
				src := out
				if e.Kind == cfg.Exception {
					src = exc
				}
				if m := cuts[edgeKey{b, i}]; m != nil {
					for j := range cut {
						cut[j] = src[j] &^ m[j]
					}
					src = cut
				}
				dst := r.in[e.To]
				for i := range dst {
					if v := dst[i] | src[i]; v != dst[i] {
						dst[i] = v
						changed = true
					}
				}
			}
		}
	}
}

type edgeKey struct {
	b cfg.BlockID
	i int
}

// cutMasks asks Options.Cut about every conditional edge and turns the
// names into masks of their definitions.
func (r *Result) cutMasks() map[edgeKey][]uint64 {
	if r.opts.Cut == nil {
		return nil
	}
	g := r.g
	var masks map[edgeKey][]uint64
	for _, b := range g.RPO() {
		for i, e := range g.Succs(b) {
			if e.Cond == syntax.NoNode {
				continue
			}
			var m []uint64
			for _, name := range r.opts.Cut(b, i, e) {
				for _, d := range r.byName[name] {
					if m == nil {
						m = make([]uint64, r.w)
					}
					set(m, d)
				}
			}
			if m != nil {
				if masks == nil {
					masks = map[edgeKey][]uint64{}
				}
				masks[edgeKey{b, i}] = m
			}
		}
	}
	return masks
}

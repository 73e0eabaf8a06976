package facts

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/cfg"
)

// derive closes the universe under the implications between facts and
// records them as rules applied whenever a fact is learnt:
//
//	x non-empty           => x is not None
//	k in t                => t non-empty
//	isinstance(x, C)      => x is not None (unless C mentions None)
//	v = t.get(k), v is not None => k in t
//	n = f(len(x)), n != 0 or n truthy => x non-empty
//	ks holds keys of t, k in ks => k in t
//	k in t                => k in u, for every table u covering t (Options.KeyCovers)
//	d aliases p, F(d)     => F(p), and back (for every F built on d)
func (a *analysis) derive() {
	var deps []pathID
	var pairs []int32
	a.inv = make([][]int32, len(a.paths.e))
	idle := a.idleAliases()
	for i := 0; i < len(a.facts); i++ {
		f := a.facts[i]
		id := int32(i)
		deps = a.factDeps(f, deps[:0])
		for _, d := range deps {
			a.inv = appendAt(a.inv, d, id)
		}
		if i < len(idle) && idle[i] {
			continue
		}
		switch f.kind {
		case Truthy:
			a.implies(id, -1, ifact{kind: NotNone, path: f.path, key: noPath, other: noPath})
		case In:
			a.implies(id, -1, ifact{kind: Truthy, path: f.path, key: noPath, other: noPath})
			for _, ko := range at(a.keysOn, f.path) {
				a.implies(ko, id, ifact{kind: In, path: a.facts[ko].other, key: f.key, other: noPath})
			}
			if a.opts.KeyCovers != nil {
				for _, u := range a.opts.KeyCovers(Path(a.paths.str(f.path))) {
					if up, ok := a.paths.ofString(u); ok && up != f.path {
						a.implies(id, -1, ifact{kind: In, path: up, key: f.key, other: noPath})
					}
				}
			}
		case IsInstance:
			if !strings.Contains(a.paths.e[f.other].name, "None") {
				a.implies(id, -1, ifact{kind: NotNone, path: f.path, key: noPath, other: noPath})
			}
		case GetOf:
			if nn := a.fact(ifact{kind: NotNone, path: f.path, key: noPath, other: noPath}); nn >= 0 {
				a.implies(id, nn, ifact{kind: In, path: f.other, key: f.key, other: noPath})
			}
		case KeysOf:
			a.keysOn = appendAt(a.keysOn, f.path, id)
			for j := 0; j < i; j++ {
				if g := a.facts[j]; g.kind == In && g.path == f.path {
					a.implies(id, int32(j), ifact{kind: In, path: f.other, key: g.key, other: noPath})
				}
			}
		case LenOf:
			// A number is truthy exactly when it is not zero.
			for _, k := range [2]Kind{NonZero, Truthy} {
				if nz := a.fact(ifact{kind: k, path: f.path, key: noPath, other: noPath}); nz >= 0 {
					a.implies(id, nz, ifact{kind: Truthy, path: f.other, key: noPath, other: noPath})
				}
			}
		case Alias:
			if f.path == f.other {
				break
			}
			a.aliasOn = appendAt(a.aliasOn, f.path, id)
			a.aliasOn = appendAt(a.aliasOn, f.other, id)
			// Older facts built on either side get mirrored.
			pairs = append(append(pairs[:0], at(a.inv, f.path)...), at(a.inv, f.other)...)
			slices.Sort(pairs)
			for _, j := range slices.Compact(pairs) {
				if j < id {
					a.mirror(id, j)
				}
			}
		}
		// This fact gets mirrored through older aliases on what it uses.
		pairs = pairs[:0]
		for _, d := range deps {
			pairs = append(pairs, at(a.aliasOn, d)...)
		}
		slices.Sort(pairs)
		for _, al := range slices.Compact(pairs) {
			if al < id {
				a.mirror(al, id)
			}
		}
	}
	// Index rules by premise.
	a.ruleOff = make([]int32, len(a.facts)+1)
	for _, r := range a.rules {
		a.ruleOff[r.p1+1]++
		if r.p2 >= 0 {
			a.ruleOff[r.p2+1]++
		}
	}
	for i := 1; i < len(a.ruleOff); i++ {
		a.ruleOff[i] += a.ruleOff[i-1]
	}
	a.ruleIdx = make([]int32, a.ruleOff[len(a.facts)])
	fill := slices.Clone(a.ruleOff[:len(a.facts)])
	for i, r := range a.rules {
		a.ruleIdx[fill[r.p1]] = int32(i)
		fill[r.p1]++
		if r.p2 >= 0 {
			a.ruleIdx[fill[r.p2]] = int32(i)
			fill[r.p2]++
		}
	}
}

const maxMirrorGen = 3

func (a *analysis) mirrorGen(f int32) uint8 {
	if int(f) < len(a.gens) {
		return a.gens[f]
	}
	return 0
}

// maxRules bounds the implications (alias mirrors grow with aliases times
// facts); past it, derivations are dropped, which only loses facts.
const maxRules = 1 << 16

// idleAliases marks the alias facts that can never carry a fact: neither
// side is connected, directly or through other aliases, to a path some
// other fact is built on. Module code is full of `A = B` that no test ever
// mentions; mirroring them costs time and tells nothing. An idle alias may
// still be learnt (it is true), it just implies nothing.
func (a *analysis) idleAliases() []bool {
	var marked []bool
	mark := func(p pathID) bool {
		for len(marked) <= int(p) {
			marked = append(marked, false)
		}
		was := marked[p]
		marked[p] = true
		return !was
	}
	isMarked := func(p pathID) bool { return int(p) < len(marked) && marked[p] }
	var deps []pathID
	nalias := 0
	for _, f := range a.facts {
		if f.kind == Alias {
			nalias++
			continue
		}
		for _, d := range a.factDeps(f, deps[:0]) {
			mark(d)
		}
	}
	if nalias == 0 {
		return nil
	}
	idle := make([]bool, len(a.facts))
	for i, f := range a.facts {
		idle[i] = f.kind == Alias
	}
	for changed := true; changed; {
		changed = false
		for i, f := range a.facts {
			if !idle[i] || !(isMarked(f.path) || isMarked(f.other)) {
				continue
			}
			idle[i] = false
			for _, d := range a.factDeps(f, deps[:0]) {
				changed = mark(d) || changed
			}
		}
	}
	return idle
}

func (a *analysis) implies(p1, p2 int32, c ifact) {
	if id := a.fact(c); id >= 0 {
		a.rules = append(a.rules, rule{p1, p2, id})
	}
}

// mirror adds, for alias fact al (d aliases p) and fact j built on d or p,
// the same fact built on the other side, equivalent while al holds.
//
// Flow-insensitively, aliases can feed each other forever (`t = a.g` and
// `a = t` give t.g ~ a.g.g ~ t.g.g ...), so mirrors of mirrors stop after
// a few generations: enough for alias chains real code writes.
func (a *analysis) mirror(al, j int32) {
	x := a.facts[al]
	f := a.facts[j]
	gen := max(a.mirrorGen(al), a.mirrorGen(j)) + 1
	if gen > maxMirrorGen {
		return
	}
	for _, dir := range [2][2]pathID{{x.path, x.other}, {x.other, x.path}} {
		if f.kind == Alias && f.path != dir[0] && f.other != dir[0] {
			// Aliases compose only transitively (e = d, d = p: e ~ p);
			// rewriting inside them (e ~ d.next to e ~ p.next) multiplies
			// aliases in linked-structure code for nothing rules ask.
			continue
		}
		g, changed, ok := a.rewriteFact(f, dir[0], dir[1])
		if !ok || !changed {
			continue
		}
		if g.kind == Alias && (g.path == g.other || a.paths.dependsOn(g.path, g.other) || a.paths.dependsOn(g.other, g.path)) {
			continue // `t = t.g` is no alias (valueFacts refuses it too)
		}
		if len(a.rules) >= maxRules {
			return
		}
		before := len(a.facts)
		k := a.fact(g)
		if k < 0 || k == al {
			continue
		}
		if int(k) >= before {
			for len(a.gens) < before {
				a.gens = append(a.gens, 0)
			}
			a.gens = append(a.gens, gen)
		}
		a.rules = append(a.rules, rule{al, j, k}, rule{al, k, j})
	}
}

func (a *analysis) rewriteFact(f ifact, from, to pathID) (ifact, bool, bool) {
	any := false
	for _, p := range []*pathID{&f.path, &f.key, &f.other} {
		if *p == noPath || a.paths.e[*p].lit {
			continue
		}
		np, changed, ok := a.paths.rewrite(*p, from, to)
		if !ok {
			return f, false, false
		}
		*p = np
		any = any || changed
	}
	return f, any, true
}

// factDeps: the paths whose rebinding kills f.
func (a *analysis) factDeps(f ifact, dst []pathID) []pathID {
	for _, p := range [3]pathID{f.path, f.key, f.other} {
		if p != noPath {
			dst = a.paths.deps(p, dst)
		}
	}
	return dst
}

func at(s [][]int32, p pathID) []int32 {
	if int(p) < len(s) {
		return s[p]
	}
	return nil
}

func appendAt(s [][]int32, p pathID, v int32) [][]int32 {
	for len(s) <= int(p) {
		s = append(s, nil)
	}
	s[p] = append(s[p], v)
	return s
}

// prepareKills resolves every rebind and mutation effect to its kill info.
func (a *analysis) prepareKills() {
	var deps []pathID
	for i, f := range a.facts {
		id := int32(i)
		switch f.kind {
		case Truthy, Falsy, In, NotIn:
			a.mutInv = appendAt(a.mutInv, f.path, id)
		case GetOf, LenOf:
			// A mutation may remove the key, or change the length.
			a.mutInv = appendAt(a.mutInv, f.other, id)
		case KeysOf, SameLen, DiffLen:
			// New elements, or keys removed from the table; a length
			// changed.
			a.mutInv = appendAt(a.mutInv, f.path, id)
			a.mutInv = appendAt(a.mutInv, f.other, id)
		}
		// Facts about elements of a container die when it is mutated.
		deps = a.factDeps(f, deps[:0])
		for _, d := range deps {
			if e := a.paths.e[d]; e.key != noPath {
				a.mutInv = appendAt(a.mutInv, e.base, id)
			}
		}
	}
	a.paths.frozen = true // for good: queries only look paths up
	a.killMemo = make([]int32, 3*len(a.paths.e))
	for i := range a.killMemo {
		a.killMemo[i] = -1
	}
	for i := range a.effs {
		if e := &a.effs[i]; e.op != opGen {
			e.arg = a.killInfoFor(e.path, e.op)
		}
	}
}

func (a *analysis) killInfoFor(p pathID, op effOp) int32 {
	key := 3*int(p) + int(min(op, 2)) // opRebind (0), opMutate (1), opRemoveKey (as 2)
	if id := a.killMemo[key]; id >= 0 {
		return id
	}
	id := int32(len(a.kills))
	a.kills = append(a.kills, killInfo{})
	a.killMemo[key] = id
	var ki killInfo
	switch op {
	case opRebind:
		ki.facts = at(a.inv, p)
	case opRemoveKey:
		for _, f := range at(a.mutInv, p) {
			if a.facts[f].kind != KeysOf {
				ki.facts = append(ki.facts, f)
			}
		}
	default:
		ki.facts = at(a.mutInv, p)
	}
	// Through an alias d ~ q, changing d.x (or mutating d) changes q.x (q).
	start := p
	if op == opRebind {
		start = a.paths.e[p].base // rebinding d itself only breaks the alias
	}
	for q := start; q != noPath; q = a.paths.e[q].base {
		for _, al := range at(a.aliasOn, q) {
			x := a.facts[al]
			other := x.other
			if q == x.other {
				other = x.path
			}
			np, changed, ok := a.paths.rewrite(p, q, other)
			if ok && changed {
				ki.props = append(ki.props, prop{alias: al, info: a.killInfoFor(np, op)})
			}
		}
	}
	a.kills[id] = ki
	return id
}

// scratch holds the work lists of one replay; queries make their own so a
// Result can be read from several goroutines.
type scratch struct {
	stack, killq, seen []int32
}

func has(s []uint64, f int32) bool { return s[f>>6]&(1<<(f&63)) != 0 }
func set(s []uint64, f int32)      { s[f>>6] |= 1 << (f & 63) }

// gen learns fact f and everything the rules derive from it.
func (a *analysis) gen(s []uint64, f int32, sc *scratch) {
	if has(s, f) {
		return
	}
	set(s, f)
	sc.stack = append(sc.stack[:0], f)
	for len(sc.stack) > 0 {
		x := sc.stack[len(sc.stack)-1]
		sc.stack = sc.stack[:len(sc.stack)-1]
		for _, ri := range a.ruleIdx[a.ruleOff[x]:a.ruleOff[x+1]] {
			r := a.rules[ri]
			if !has(s, r.c) && has(s, r.p1) && (r.p2 < 0 || has(s, r.p2)) {
				set(s, r.c)
				sc.stack = append(sc.stack, r.c)
			}
		}
	}
}

func (a *analysis) kill(s []uint64, info int32, sc *scratch) {
	ki := &a.kills[info]
	for _, f := range ki.facts {
		s[f>>6] &^= 1 << (f & 63)
	}
	if len(ki.props) == 0 {
		return
	}
	sc.killq = append(sc.killq[:0], info)
	sc.seen = append(sc.seen[:0], info)
	for len(sc.killq) > 0 {
		i := sc.killq[len(sc.killq)-1]
		sc.killq = sc.killq[:len(sc.killq)-1]
		for _, pr := range a.kills[i].props {
			if !has(s, pr.alias) || slices.Contains(sc.seen, pr.info) {
				continue
			}
			sc.seen = append(sc.seen, pr.info)
			for _, f := range a.kills[pr.info].facts {
				s[f>>6] &^= 1 << (f & 63)
			}
			sc.killq = append(sc.killq, pr.info)
		}
	}
}

// applyItem runs the effects of global item k on state s.
func (a *analysis) applyItem(s []uint64, k int32, sc *scratch) {
	for _, e := range a.effs[a.itemEff[k]:a.itemEff[k+1]] {
		if e.op == opGen {
			a.gen(s, e.arg, sc)
		} else {
			a.kill(s, e.arg, sc)
		}
	}
}

func (a *analysis) inState(b cfg.BlockID) []uint64 {
	return a.in[int(b)*a.w : int(b+1)*a.w]
}

// solve iterates the must-analysis to its fixpoint: a block's in-state is
// the intersection of what its incoming edges carry; blocks not reached yet
// count as holding everything.
func (a *analysis) solve() {
	g := a.g
	nb := len(g.Blocks)
	w := (len(a.facts) + 63) / 64
	a.w = w
	words := make([]uint64, (nb+3)*w)
	a.in = words[:nb*w]
	state, exc, tmp := words[nb*w:(nb+1)*w], words[(nb+1)*w:(nb+2)*w], words[(nb+2)*w:]
	flags := make([]bool, 2*nb)
	a.reached = flags[:nb:nb]
	dirty := flags[nb:]
	sc := &scratch{}
	for _, f := range a.entry {
		a.gen(a.inState(cfg.Entry), f, sc)
	}
	a.reached[cfg.Entry], dirty[cfg.Entry] = true, true
	for again := true; again; {
		again = false
		for _, b := range g.RPO() {
			if !dirty[b] {
				continue
			}
			dirty[b] = false
			copy(state, a.inState(b))
			succs := g.Succs(b)
			hasExc := false
			for _, e := range succs {
				hasExc = hasExc || e.Kind == cfg.Exception
			}
			if hasExc {
				copy(exc, state)
			}
			for k := a.blockItem[b]; k < a.blockItem[b+1]; k++ {
				if hasExc && k > a.blockItem[b] {
					and(exc, state) // an exception may leave before any item
				}
				a.applyItem(state, k, sc)
			}
			for j, e := range succs {
				out := state
				if e.Kind == cfg.Exception {
					out = exc
				}
				ei := int(a.edgeBase[b]) + j
				if gens := a.genFacts[a.edgeGen[ei]:a.edgeGen[ei+1]]; len(gens) > 0 {
					copy(tmp, out)
					for _, f := range gens {
						a.gen(tmp, f, sc)
					}
					out = tmp
				}
				dst := a.inState(e.To)
				switch {
				case !a.reached[e.To]:
					a.reached[e.To] = true
					copy(dst, out)
				case !and(dst, out):
					continue
				}
				dirty[e.To] = true
				again = true
			}
		}
	}
}

// and sets dst &= src and reports whether dst changed.
func and(dst, src []uint64) bool {
	changed := false
	for i, w := range src {
		if x := dst[i] & w; x != dst[i] {
			dst[i] = x
			changed = true
		}
	}
	return changed
}

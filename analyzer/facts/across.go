package facts

// Moving facts across a call. A caller's facts at a call site become a
// callee's EntryFacts, and a callee's facts at its normal exit become the
// caller's CallEffects for that call, once paths are renamed: the callee's
// `self` is the caller's receiver (`self`, or `mgr` for mgr.send()), a
// parameter is the argument's path. Only facts built entirely on the names
// being renamed can cross; a fact about a local means nothing on the other
// side.

// Restrict keeps the facts whose paths (the key and the aliased or table
// path included; literal keys and class names need nothing) all start
// from one of roots.
func Restrict(fs []Fact, roots ...string) []Fact {
	var out []Fact
	for _, f := range fs {
		if rooted(f, roots) {
			out = append(out, f)
		}
	}
	return out
}

func rooted(f Fact, roots []string) bool {
	in := func(p Path) bool {
		if p == "" || p.IsLiteral() {
			return true
		}
		r := p.Root()
		for _, x := range roots {
			if r == x {
				return true
			}
		}
		return false
	}
	other := f.Other
	if f.Kind == IsInstance || f.Kind == NotInstance {
		other = ""
	}
	return in(f.Path) && in(f.Key) && in(other)
}

// Rebase renames prefix old to new in every path of fs (keys and aliased
// paths included); paths not under old are unchanged.
func Rebase(fs []Fact, old, new Path) []Fact {
	out := make([]Fact, len(fs))
	for i, f := range fs {
		f.Path, _ = f.Path.Rebase(old, new)
		if !f.Key.IsLiteral() {
			f.Key, _ = f.Key.Rebase(old, new)
		}
		if f.Kind != IsInstance && f.Kind != NotInstance {
			f.Other, _ = f.Other.Rebase(old, new)
		}
		out[i] = f
	}
	return out
}

// ExitFacts are the facts at the normal exit built only on roots (say
// "self" and the parameters), leaving out any root the function rebinds
// (after `req = other`, facts on req are about other). This is the
// callee-side summary a caller uses as CallEffects, after Rebase.
func (r *Result) ExitFacts(roots ...string) []Fact {
	var keep []string
	for _, x := range roots {
		if !r.a.rebinds(x) {
			keep = append(keep, x)
		}
	}
	return Restrict(r.AtExit(), keep...)
}

// rebinds reports whether the function assigns name itself (not a path
// under it) anywhere.
func (a *analysis) rebinds(name string) bool {
	id, ok := a.paths.find(pathKey{base: noPath, key: noPath, name: name})
	if !ok {
		return false
	}
	for _, e := range a.effs {
		if e.op == opRebind && e.path == id {
			return true
		}
	}
	return false
}

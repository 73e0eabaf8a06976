package facts

import (
	"unsafe"

	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// pathID indexes a pathTable: paths are interned once per analysis so that
// facts are small comparable structs and prefixes are links, not strings.
// Interning is structural (base, attribute or key), so building a path
// allocates nothing but its entry; canonical strings are made when a fact
// is exported.
type pathID int32

const noPath pathID = -1

type pathKey struct {
	base pathID // object of an attribute or subscript; noPath for a name or literal
	key  pathID // subscript key; noPath otherwise
	name string // identifier, attribute name or literal text; empty for subscripts
	lit  bool   // a literal key or a class expression: never rebound
}

type pathEntry struct {
	pathKey
	depth int32
}

type pathTable struct {
	e   []pathEntry
	idx map[pathKey]pathID
	// frozen: no new paths; building one that does not exist fails. Kill
	// propagation runs frozen: a path no fact mentions has nothing to kill,
	// and creating paths there would feed alias cycles forever.
	frozen bool
}

// maxDepth bounds paths built by rewriting through aliases.
const maxDepth = 24

// smallTable: below this many paths a linear scan beats building a map
// (most functions mention a handful of paths).
const smallTable = 16

func (pt *pathTable) find(k pathKey) (pathID, bool) {
	if pt.idx == nil {
		for i := range pt.e {
			if pt.e[i].pathKey == k {
				return pathID(i), true
			}
		}
		return noPath, false
	}
	id, ok := pt.idx[k]
	return id, ok
}

func (pt *pathTable) add(k pathKey) pathID {
	if id, ok := pt.find(k); ok {
		return id
	}
	if pt.frozen {
		return noPath
	}
	var depth int32
	if k.base != noPath {
		depth = pt.e[k.base].depth + 1
		if depth > maxDepth {
			return noPath
		}
	}
	id := pathID(len(pt.e))
	pt.e = append(pt.e, pathEntry{pathKey: k, depth: depth})
	switch {
	case pt.idx != nil:
		pt.idx[k] = id
	case len(pt.e) > smallTable:
		pt.idx = make(map[pathKey]pathID, 2*len(pt.e))
		for i := range pt.e {
			pt.idx[pt.e[i].pathKey] = pathID(i)
		}
	}
	return id
}

// name interns an identifier; the string may point into the source.
func (pt *pathTable) name(s string) pathID {
	return pt.add(pathKey{base: noPath, key: noPath, name: s})
}

func (pt *pathTable) literal(s string) pathID {
	return pt.add(pathKey{base: noPath, key: noPath, name: s, lit: true})
}

// attrOf is base.attr.
func (pt *pathTable) attrOf(base pathID, attr string) (pathID, bool) {
	id := pt.add(pathKey{base: base, key: noPath, name: attr})
	return id, id != noPath
}

// index is base[key].
func (pt *pathTable) index(base, key pathID) (pathID, bool) {
	id := pt.add(pathKey{base: base, key: key})
	return id, id != noPath
}

// str returns p's canonical form.
func (pt *pathTable) str(p pathID) string {
	return string(pt.appendStr(nil, p))
}

func (pt *pathTable) appendStr(dst []byte, p pathID) []byte {
	e := &pt.e[p]
	if e.base == noPath {
		return append(dst, e.name...)
	}
	dst = pt.appendStr(dst, e.base)
	if e.key != noPath {
		dst = append(dst, '[')
		dst = pt.appendStr(dst, e.key)
		return append(dst, ']')
	}
	dst = append(dst, '.')
	return append(dst, e.name...)
}

// srcString views b, a slice of the tree's source, as a string without
// copying: the source must not change while the tree is used (the syntax
// package's contract), and paths live no longer than the tree.
func srcString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// ofNode interns the path expression n denotes (see PathOf); literals
// qualify only when lit is set (keys).
func (pt *pathTable) ofNode(t *syntax.Tree, n syntax.NodeID, lit bool) (pathID, bool) {
	n = t.Unparen(n)
	if n == syntax.NoNode || t.IsError(n) || t.IsMissing(n) {
		return noPath, false
	}
	switch t.Kind(n) {
	case syntax.Identifier:
		id := pt.name(srcString(t.Bytes(n)))
		return id, id != noPath
	case syntax.Attribute:
		attr := t.Field(n, syntax.FAttribute)
		if attr == syntax.NoNode || t.IsMissing(attr) {
			return noPath, false
		}
		base, ok := pt.ofNode(t, t.Field(n, syntax.FObject), false)
		if !ok {
			return noPath, false
		}
		return pt.attrOf(base, srcString(t.Bytes(attr)))
	case syntax.Call:
		obj, name, ok := getattrOf(t, n)
		if !ok {
			return noPath, false
		}
		base, ok := pt.ofNode(t, obj, false)
		if !ok {
			return noPath, false
		}
		return pt.attrOf(base, name)
	case syntax.Subscript:
		k := subscriptKey(t, n)
		base, ok := pt.ofNode(t, t.Field(n, syntax.FValue), false)
		if !ok {
			return noPath, false
		}
		var key pathID
		if k == syntax.NoNode {
			s, ok := tupleKey(t, subscripts(t, n))
			if !ok {
				return noPath, false
			}
			key = pt.literal(s)
		} else if key, ok = pt.ofNode(t, k, true); !ok {
			return noPath, false
		}
		if key == noPath {
			return noPath, false
		}
		return pt.index(base, key)
	}
	if lit {
		if s, ok := literalKey(t, n); ok {
			id := pt.literal(s)
			return id, id != noPath
		}
		if t.Kind(n) == syntax.Tuple {
			if s, ok := tupleKey(t, namedChildren(t, n)); ok {
				id := pt.literal(s)
				return id, id != noPath
			}
		}
	}
	return noPath, false
}

// ofString interns a canonical path given as text (facts from Options).
func (pt *pathTable) ofString(s Path) (pathID, bool) {
	id, rest, ok := pt.parse(string(s), false)
	return id, ok && rest == ""
}

// parse reads one path (or, for keys, a literal) from the front of s.
func (pt *pathTable) parse(s string, key bool) (pathID, string, bool) {
	if s == "" {
		return noPath, s, false
	}
	if key && Path(s[:1]).IsLiteral() {
		end := 0
		if s[0] == '(' {
			depth := 0
			for end < len(s) {
				if s[end] == '(' {
					depth++
				} else if s[end] == ')' {
					depth--
					if depth == 0 {
						end++
						break
					}
				}
				end++
			}
			if depth != 0 {
				return noPath, s, false
			}
			id := pt.literal(s[:end])
			return id, s[end:], id != noPath
		}
		if s[0] == '\'' {
			j := 1
			for j < len(s) && s[j] != '\'' {
				j++
			}
			if j == len(s) {
				return noPath, s, false
			}
			end = j + 1
		} else {
			for end < len(s) && s[end] != ']' {
				end++
			}
		}
		id := pt.literal(s[:end])
		return id, s[end:], id != noPath
	}
	i := 0
	for i < len(s) && pyname.IsIdentByte(s[i]) {
		i++
	}
	if i == 0 {
		return noPath, s, false
	}
	if key && (s[:i] == "None" || s[:i] == "True" || s[:i] == "False") {
		id := pt.literal(s[:i])
		return id, s[i:], id != noPath
	}
	id := pt.name(s[:i])
	if id == noPath {
		return noPath, s, false
	}
	s = s[i:]
	for len(s) > 0 {
		switch s[0] {
		case '.':
			j := 1
			for j < len(s) && pyname.IsIdentByte(s[j]) {
				j++
			}
			if j == 1 {
				return noPath, s, false
			}
			var ok bool
			if id, ok = pt.attrOf(id, s[1:j]); !ok {
				return noPath, s, false
			}
			s = s[j:]
		case '[':
			k, rest, ok := pt.parse(s[1:], true)
			if !ok || rest == "" || rest[0] != ']' {
				return noPath, s, false
			}
			if id, ok = pt.index(id, k); !ok {
				return noPath, s, false
			}
			s = rest[1:]
		default:
			return id, s, true
		}
	}
	return id, s, true
}

// dependsOn reports whether p's value depends on binding q: q is a prefix
// of p or of a key used in p.
func (pt *pathTable) dependsOn(p, q pathID) bool {
	for ; p != noPath; p = pt.e[p].base {
		if p == q {
			return true
		}
		if k := pt.e[p].key; k != noPath && pt.dependsOn(k, q) {
			return true
		}
	}
	return false
}

// deps appends every path whose rebinding changes what p denotes.
func (pt *pathTable) deps(p pathID, dst []pathID) []pathID {
	for ; p != noPath; p = pt.e[p].base {
		if pt.e[p].lit {
			return dst
		}
		dst = append(dst, p)
		if k := pt.e[p].key; k != noPath {
			dst = pt.deps(k, dst)
		}
	}
	return dst
}

// rewrite replaces path `from` by `to` wherever p is built on it (as a
// prefix or inside a key); changed is false when p does not mention it.
func (pt *pathTable) rewrite(p, from, to pathID) (np pathID, changed, ok bool) {
	if p == from {
		return to, true, true
	}
	e := pt.e[p]
	if e.base == noPath {
		return p, false, true
	}
	nb, c1, ok := pt.rewrite(e.base, from, to)
	if !ok {
		return noPath, false, false
	}
	nk, c2 := e.key, false
	if e.key != noPath {
		if nk, c2, ok = pt.rewrite(e.key, from, to); !ok {
			return noPath, false, false
		}
	}
	if !c1 && !c2 {
		return p, false, true
	}
	if e.key != noPath {
		np, ok = pt.index(nb, nk)
	} else {
		np, ok = pt.attrOf(nb, e.name)
	}
	return np, ok, ok
}

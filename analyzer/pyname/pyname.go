// Package pyname is what both the pre-scan (analyzer/prescan, which reads
// bytes) and the project model (analyzer/pymodel, which reads syntax
// trees) need to know of Python names: identifiers, dotted module names
// and their tails, relative imports, and lists split at their top level.
// It depends on nothing, so the pre-scan stays apart from the parser.
package pyname

import (
	"iter"
	"strings"
)

// IsIdent reports whether s is a Python identifier (any non-ASCII letter
// counts, as the pre-scan cannot tell them apart).
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// IsDotted reports whether s is identifiers joined by dots (`pkg.mod`,
// `self.kv_mgr`; a single identifier too).
func IsDotted(s string) bool {
	for p := range strings.SplitSeq(s, ".") {
		if !IsIdent(p) {
			return false
		}
	}
	return true
}

// IsIdentByte reports whether c may be part of an identifier (a byte of a
// non-ASCII letter counts): for scanners that read bytes.
func IsIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// SplitTop splits s at each sep outside brackets ((), [] and {}).
func SplitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// Parent is the package a dotted module name is in ("" at the top).
func Parent(module string) string {
	if i := strings.LastIndexByte(module, '.'); i >= 0 {
		return module[:i]
	}
	return ""
}

// Last is the last part of a dotted name (the name itself if it has no
// dot): the class of `errors.KVError`, the method of `self.send`.
func Last(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// ResolveRelative turns the module of a relative import into an absolute
// module name, as seen from module from (a package when isPackage):
// level 1 is from's package, each further level one package up. It returns
// false when the import climbs above the top package.
func ResolveRelative(from string, isPackage bool, level int, module string) (string, bool) {
	if level <= 0 {
		return module, true
	}
	base := from
	if !isPackage {
		base = Parent(from)
	}
	for i := 1; i < level; i++ {
		if base == "" {
			return "", false
		}
		base = Parent(base)
	}
	switch {
	case base == "":
		return module, true
	case module == "":
		return base, true
	}
	return base + "." + module, true
}

// Tails yields the dotted tails of a module name that have two segments
// or more, without the whole name: `b.c.d` and `c.d` for `a.b.c.d`. A
// name written in a project that runs from another root (`sglang.x` for
// `python.sglang.x`) is found by its tail.
func Tails(module string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := strings.IndexByte(module, '.'); i >= 0; {
			tail := module[i+1:]
			j := strings.IndexByte(tail, '.')
			if j < 0 || !yield(tail) {
				return
			}
			i += 1 + j
		}
	}
}

// Modules finds a project's files by module name: exactly (the first file
// of a name wins), or by a dotted tail of two segments or more that only
// one file's name ends with (Tails). The pre-scan and the project model
// resolve names alike through it.
type Modules struct {
	exact map[string]int32
	tails map[string]int32 // -1: several files end with the tail
}

// NewModules prepares Modules for about n files.
func NewModules(n int) Modules {
	return Modules{exact: make(map[string]int32, n), tails: map[string]int32{}}
}

// Add records that file i is module.
func (m *Modules) Add(module string, i int32) {
	if _, dup := m.exact[module]; !dup {
		m.exact[module] = i
	}
	for tail := range Tails(module) {
		if prev, ok := m.tails[tail]; ok && prev != i {
			m.tails[tail] = -1
		} else {
			m.tails[tail] = i
		}
	}
}

// Exact returns the file named module exactly.
func (m *Modules) Exact(module string) (int32, bool) {
	i, ok := m.exact[module]
	return i, ok
}

// Lookup returns the file of module: exactly, or as the only file whose
// name ends with module when module is dotted.
func (m *Modules) Lookup(module string) (int32, bool) {
	if i, ok := m.exact[module]; ok {
		return i, true
	}
	if strings.IndexByte(module, '.') >= 0 {
		if i, ok := m.tails[module]; ok && i >= 0 {
			return i, true
		}
	}
	return -1, false
}

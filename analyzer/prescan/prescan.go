// Package prescan reads what a Python file declares from its bytes alone,
// with no parser: its class headers (name and bases as written) and its
// imports. It is the cheap first look that lets a run choose which files
// need the full model (a syntax tree, a summary, control flow) before
// parsing any: the KV rules read the classes that derive from the KV bases
// and what those classes call, a few dozen files of a tree of thousands.
//
// The scan is line-based and errs towards seeing more: a header inside a
// string that spans lines is skipped when the string starts with triple
// quotes on its own logical line, and otherwise may be read as code, which
// costs a file loaded for nothing, never a file missed. Logical lines are
// joined across open brackets and backslash continuations.
package prescan

import (
	"bytes"
	"iter"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Class is a class header: `class Name(Base, pkg.Other, metaclass=M):`.
type Class struct {
	Name  string
	Bases []string // positional bases as written (dotted names only)
}

// Import binds a local name to a module or a module's member:
// `import a.b` (Name "a", Module "a"), `import a.b as c` (Name "c",
// Module "a.b"), `from .x import y as z` (Name "z", Module ".x", Member
// "y"). Level counts the leading dots of a relative import.
type Import struct {
	Name   string
	Module string // without the leading dots
	Level  int
	Member string // "" for `import m`; "*" for a star import
}

// File is what a file declares.
type File struct {
	Classes []Class
	Imports []Import
	Funcs   []string // names of the functions defined at module level
	// Attrs are the attribute names the file declares on classes: fields
	// of class bodies (`kind: Optional[str] = None`) and `self.kind = ...`
	// assignments, each once, in order.
	Attrs []string
}

// Scan reads src.
func Scan(src []byte) *File {
	f := &File{}
	attrs := map[string]bool{}
	addAttr := func(name []byte) {
		if !attrs[string(name)] {
			n := string(name)
			attrs[n] = true
			f.Attrs = append(f.Attrs, n)
		}
	}
	// classes holds the indentation of the class headers enclosing the
	// line, and of their bodies once known (-1 until then).
	type open struct{ header, body int }
	var classes []open
	self := []byte("self.")
	for text := range logicalLines(src) {
		trimmed := trimSpaceLeft(text)
		indent := len(text) - len(trimmed)
		if len(trimmed) == 0 {
			continue
		}
		for len(classes) > 0 && indent <= classes[len(classes)-1].header {
			classes = classes[:len(classes)-1]
		}
		if k := len(classes) - 1; k >= 0 {
			if classes[k].body < 0 {
				classes[k].body = indent
			}
			if indent == classes[k].body {
				if name, ok := fieldName(trimmed); ok {
					addAttr(name)
				}
			}
		}
		for rest := trimmed; ; {
			i := bytes.Index(rest, self)
			if i < 0 {
				break
			}
			before := len(trimmed) - len(rest) + i - 1
			rest = rest[i+5:]
			if before >= 0 && pyname.IsIdentByte(trimmed[before]) {
				continue // myself.x
			}
			if name, ok := fieldName(rest); ok {
				addAttr(name)
			}
		}
		switch trimmed[0] {
		case 'c':
			if bytes.HasPrefix(trimmed, []byte("class ")) || bytes.HasPrefix(trimmed, []byte("class\t")) {
				if c, ok := classHeader(string(trimmed[6:])); ok {
					f.Classes = append(f.Classes, c)
					classes = append(classes, open{header: indent, body: -1})
				}
			}
		case 'd', 'a':
			if indent == 0 {
				name := trimmed
				if bytes.HasPrefix(name, []byte("async ")) {
					name = trimSpaceLeft(name[6:])
				}
				if bytes.HasPrefix(name, []byte("def ")) {
					name = trimSpaceLeft(name[4:])
					if end := bytes.IndexAny(name, "(["); end > 0 {
						if id := string(trimSpaceRight(name[:end])); pyname.IsIdent(id) {
							f.Funcs = append(f.Funcs, id)
						}
					}
				}
			}
		case 'i':
			if bytes.HasPrefix(trimmed, []byte("import ")) {
				f.Imports = appendImports(f.Imports, string(trimmed[7:]))
			}
		case 'f':
			if bytes.HasPrefix(trimmed, []byte("from ")) {
				f.Imports = appendFrom(f.Imports, string(trimmed[5:]))
			}
		}
	}
	return f
}

func trimSpaceLeft(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// special marks the bytes the lexer acts on; the rest are skipped in a
// tight loop (most of a source line).
var special = func() (t [256]bool) {
	for _, c := range []byte("#\"'()[]{}") {
		t[c] = true
	}
	return t
}()

// lexer tracks what spans physical lines: open brackets and an open
// triple-quoted string.
type lexer struct {
	depth  int
	triple string // the quote of an open triple-quoted string
}

// code returns the code of one physical line: comments dropped, the parts
// inside a triple-quoted string that spans lines dropped, brackets counted
// outside string literals.
func (lx *lexer) code(line []byte) []byte {
	i := 0
	if lx.triple != "" {
		j := bytes.Index(line, []byte(lx.triple))
		if j < 0 {
			return nil
		}
		i = j + 3
		lx.triple = ""
	}
	from := i
	for ; i < len(line); i++ {
		c := line[i]
		if !special[c] {
			continue
		}
		switch c {
		case '#':
			return line[from:i]
		case '"', '\'':
			if i+2 < len(line) && line[i+1] == c && line[i+2] == c {
				q := line[i : i+3]
				j := bytes.Index(line[i+3:], q)
				if j < 0 {
					lx.triple = string(q)
					return line[from:i]
				}
				i += 3 + j + 2
				continue
			}
			for i++; i < len(line) && line[i] != c; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			lx.depth++
		case ')', ']', '}':
			if lx.depth > 0 {
				lx.depth--
			}
		}
	}
	return line[from:]
}

// logicalLines yields each logical line (physical lines joined while a
// bracket or a triple-quoted string is open, or after a backslash). A line
// that starts inside a string yields nothing of its own.
func logicalLines(src []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		var lx lexer
		var cur []byte
		open := false // cur holds the start of a logical line
		for len(src) > 0 {
			end := bytes.IndexByte(src, '\n')
			var raw []byte
			if end < 0 {
				raw, src = src, nil
			} else {
				raw, src = src[:end], src[end+1:]
			}
			inString := lx.triple != ""
			code := trimSpaceRight(lx.code(raw))
			if !open {
				if inString {
					continue // the rest of a string that spans lines
				}
				cur, open = cur[:0], true
			}
			cont := false
			if len(code) > 0 && code[len(code)-1] == '\\' {
				code, cont = code[:len(code)-1], true
			}
			if lx.depth > 0 || lx.triple != "" || cont {
				cur = append(append(cur, code...), ' ')
				continue
			}
			open = false
			line := code
			if len(cur) > 0 { // a logical line of several physical ones
				line = append(cur, code...)
				cur = line
			}
			if !yield(line) {
				return
			}
		}
		if open {
			yield(cur)
		}
	}
}

func trimSpaceRight(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\r':
			b = b[:len(b)-1]
			continue
		}
		break
	}
	return b
}

// fieldName reads `name: T = v`, `name: T` or `name = v` (not `==`, not
// `:=`) at the start of s.
func fieldName(s []byte) ([]byte, bool) {
	end := 0
	for end < len(s) && pyname.IsIdentByte(s[end]) {
		end++
	}
	if end == 0 || s[0] >= '0' && s[0] <= '9' {
		return nil, false
	}
	name := s[:end]
	rest := trimSpaceLeft(s[end:])
	if len(rest) == 0 {
		return nil, false
	}
	next := byte(0)
	if len(rest) > 1 {
		next = rest[1]
	}
	switch {
	case rest[0] == ':' && next != '=':
		return name, true
	case rest[0] == '=' && next != '=':
		return name, true
	}
	return nil, false
}

// classHeader reads `Name(bases):` or `Name:`.
func classHeader(s string) (Class, bool) {
	s = strings.TrimSpace(s)
	end := strings.IndexAny(s, "(:[")
	if end <= 0 {
		return Class{}, false
	}
	c := Class{Name: strings.TrimSpace(s[:end])}
	if !pyname.IsIdent(c.Name) {
		return Class{}, false
	}
	if s[end] == '[' { // PEP 695 type parameters
		close := matching(s, end)
		if close < 0 {
			return c, true
		}
		s = s[:end] + s[close+1:]
	}
	if s[end] != '(' {
		return c, true
	}
	close := matching(s, end)
	if close < 0 {
		close = len(s)
	}
	for _, b := range pyname.SplitTop(s[end+1:close], ',') {
		b = strings.TrimSpace(b)
		if b == "" || strings.Contains(b, "=") {
			continue // keywords: metaclass=..., total=False
		}
		if i := strings.IndexByte(b, '['); i >= 0 {
			b = strings.TrimSpace(b[:i]) // Generic[T]: the class is Generic
		}
		if pyname.IsDotted(b) {
			c.Bases = append(c.Bases, b)
		}
	}
	return c, true
}

// matching returns the index of the bracket closing the one at open.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// appendImports reads `a.b as c, d`.
func appendImports(out []Import, s string) []Import {
	for _, part := range pyname.SplitTop(strings.TrimRight(strings.TrimSpace(s), ";"), ',') {
		mod, as := splitAs(part)
		if !pyname.IsDotted(mod) {
			continue
		}
		name := as
		if name == "" {
			name, _, _ = strings.Cut(mod, ".")
			out = append(out, Import{Name: name, Module: mod})
			continue
		}
		out = append(out, Import{Name: name, Module: mod})
	}
	return out
}

// appendFrom reads `.x import (a as b, c)`.
func appendFrom(out []Import, s string) []Import {
	mod, names, ok := strings.Cut(s, " import ")
	if !ok {
		return out
	}
	mod = strings.TrimSpace(mod)
	level := len(mod) - len(strings.TrimLeft(mod, "."))
	mod = mod[level:]
	if mod != "" && !pyname.IsDotted(mod) {
		return out
	}
	names = strings.TrimSpace(names)
	names = strings.TrimSuffix(strings.TrimPrefix(names, "("), ")")
	for _, part := range pyname.SplitTop(names, ',') {
		member, as := splitAs(part)
		if member == "*" {
			out = append(out, Import{Name: "*", Module: mod, Level: level, Member: "*"})
			continue
		}
		if !pyname.IsIdent(member) {
			continue
		}
		if as == "" {
			as = member
		}
		out = append(out, Import{Name: as, Module: mod, Level: level, Member: member})
	}
	return out
}

func splitAs(s string) (string, string) {
	f := strings.Fields(s)
	switch {
	case len(f) == 1:
		return f[0], ""
	case len(f) == 3 && f[1] == "as" && pyname.IsIdent(f[2]):
		return f[0], f[2]
	}
	return "", ""
}

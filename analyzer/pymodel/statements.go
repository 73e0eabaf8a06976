package pymodel

import "github.com/sglint/sglint/analyzer/syntax"

// Statements the summary records besides definitions and uses: imports,
// try statements and their handlers, raises and returns.

func (s *summarizer) imports(n syntax.NodeID) {
	t := s.t
	fn := s.fn()
	at := s.at(n)
	switch t.Kind(n) {
	case syntax.ImportStatement:
		for c := range t.FieldAll(n, syntax.FName) {
			imp := Import{Func: fn, At: at}
			switch t.Kind(c) {
			case syntax.DottedName:
				imp.Module = s.moduleText(c)
				imp.Alias = firstSegment(imp.Module)
			case syntax.AliasedImport:
				m, a := t.Field(c, syntax.FName), t.Field(c, syntax.FAlias)
				if m == syntax.NoNode || a == syntax.NoNode {
					continue
				}
				imp.Module, imp.Alias = s.moduleText(m), s.text(a)
			default:
				continue
			}
			s.sum.Imports = append(s.sum.Imports, imp)
		}
	case syntax.ImportFromStatement, syntax.FutureImportStatement:
		var module string
		var level int8
		if m := t.Field(n, syntax.FModuleName); m != syntax.NoNode {
			if t.Kind(m) == syntax.RelativeImport {
				for c := range t.NamedChildren(m) {
					switch t.Kind(c) {
					case syntax.ImportPrefix:
						level = int8(min(len(s.text(c)), 100))
					case syntax.DottedName:
						module = s.moduleText(c)
					}
				}
			} else {
				module = s.moduleText(m)
			}
		} else if t.Kind(n) == syntax.FutureImportStatement {
			module = "__future__"
		}
		for c := range t.NamedChildren(n) {
			if t.FieldOf(c) == syntax.FModuleName {
				continue
			}
			imp := Import{Func: fn, Module: module, Level: level, At: at}
			switch t.Kind(c) {
			case syntax.WildcardImport:
				imp.Name, imp.Alias = "*", "*"
			case syntax.DottedName:
				imp.Name = s.moduleText(c)
				imp.Alias = imp.Name
			case syntax.AliasedImport:
				m, a := t.Field(c, syntax.FName), t.Field(c, syntax.FAlias)
				if m == syntax.NoNode || a == syntax.NoNode {
					continue
				}
				imp.Name, imp.Alias = s.moduleText(m), s.text(a)
			default:
				continue
			}
			s.sum.Imports = append(s.sum.Imports, imp)
		}
	}
}

// moduleText is a dotted_name's text without whitespace.
func (s *summarizer) moduleText(n syntax.NodeID) string {
	txt := s.text(n)
	for i := 0; i < len(txt); i++ {
		if c := txt[i]; c == ' ' || c == '\t' || c == '\n' || c == '\\' || c == '#' {
			return compactDotted(txt)
		}
	}
	return txt
}

func firstSegment(d string) string {
	if i := indexByte(d, '.'); i >= 0 {
		return d[:i]
	}
	return d
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func hasSuffix(s, suf string) bool { return len(s) >= len(suf) && s[len(s)-len(suf):] == suf }

func (s *summarizer) tryStatement(n syntax.NodeID) {
	t := s.t
	body := t.Field(n, syntax.FBody)
	if body == syntax.NoNode {
		return
	}
	outer, _, _ := s.tryAt()
	tr := Try{Func: s.fn(), Outer: outer, BodyStart: body, BodyEnd: t.SubtreeEnd(body), At: s.at(n)}
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == syntax.FinallyClause {
			tr.Finally = true
		}
	}
	idx := int32(len(s.sum.Tries))
	s.sum.Tries = append(s.sum.Tries, tr)
	s.frames = append(s.frames,
		tryFrame{end: t.SubtreeEnd(n), try: idx, kind: frameStmt},
		tryFrame{end: tr.BodyEnd, try: idx, kind: frameBody})
}

func (s *summarizer) handler(n syntax.NodeID) {
	t := s.t
	if len(s.frames) == 0 {
		return
	}
	top := &s.frames[len(s.frames)-1]
	if top.kind != frameStmt || t.Parent(n) == syntax.NoNode || t.Kind(t.Parent(n)) != syntax.TryStatement {
		return
	}
	h := Handler{At: s.at(n), Star: t.Kind(n) == syntax.ExceptGroupClause}
	if v := t.Field(n, syntax.FValue); v != syntax.NoNode {
		types := v
		if t.Kind(v) == syntax.AsPattern {
			types = t.NamedChild(v, 0)
			if a := t.Field(v, syntax.FAlias); a != syntax.NoNode {
				if id := t.NamedChild(a, 0); id != syntax.NoNode && t.Kind(id) == syntax.Identifier {
					h.Name = s.text(id)
				} else if t.Kind(a) == syntax.Identifier {
					h.Name = s.text(a)
				}
			}
		}
		if types != syntax.NoNode {
			types = t.Unparen(types)
			if types != syntax.NoNode && t.Kind(types) == syntax.Tuple {
				for e := range t.NamedChildren(types) {
					h.Types = append(h.Types, s.exprText(e))
				}
			} else if types != syntax.NoNode {
				h.Types = []string{s.exprText(types)}
			}
		}
		if h.Types == nil {
			h.Types = []string{} // `except <something unreadable>:` is not bare
		}
	}
	tr := &s.sum.Tries[top.try]
	hi := int16(len(tr.Handlers))
	tr.Handlers = append(tr.Handlers, h)
	s.frames = append(s.frames, tryFrame{end: t.SubtreeEnd(n), try: top.try, kind: frameHandler, handler: hi})
}

// exprText is a dotted name's compact text, or the expression as written.
func (s *summarizer) exprText(n syntax.NodeID) string {
	if d, ok := s.dotted(n); ok {
		return d
	}
	return s.text(n)
}

func (s *summarizer) raise(n syntax.NodeID) {
	t := s.t
	r := Raise{Func: s.fn(), At: s.at(n)}
	r.Try, r.HandlerTry, r.Handler = s.tryAt()
	var e syntax.NodeID = syntax.NoNode
	for c := range t.NamedChildren(n) {
		if t.FieldOf(c) != syntax.FCause {
			e = c
			break
		}
	}
	if e != syntax.NoNode {
		e = t.Unparen(e)
	}
	if e != syntax.NoNode {
		if t.Kind(e) == syntax.Call {
			if f := t.Field(e, syntax.FFunction); f != syntax.NoNode {
				r.Type = s.exprText(f)
			}
			if args := t.Field(e, syntax.FArguments); args != syntax.NoNode {
				if a := t.NamedChild(args, 0); a != syntax.NoNode && t.Kind(a) == syntax.String {
					r.Message = s.stringContent(a)
				}
			}
		} else {
			r.Type = s.exprText(e)
		}
	}
	if r.HandlerTry >= 0 {
		h := &s.sum.Tries[r.HandlerTry].Handlers[r.Handler]
		if r.Type == "" || (h.Name != "" && r.Type == h.Name) {
			h.Reraises = true
		}
	}
	s.sum.Raises = append(s.sum.Raises, r)
}

// stringContent is a string literal without its quotes and prefix.
func (s *summarizer) stringContent(n syntax.NodeID) string {
	t := s.t
	start, end := t.StartByte(n), t.EndByte(n)
	for c := range t.Children(n) {
		switch t.Kind(c) {
		case syntax.StringStart:
			start = t.EndByte(c)
		case syntax.StringEnd:
			end = t.StartByte(c)
		}
	}
	if start > end {
		return ""
	}
	return s.src[start:end]
}

func (s *summarizer) ret(n syntax.NodeID) {
	t := s.t
	fn := s.fn()
	if fn < 0 {
		return
	}
	r := Return{Func: fn, Value: ValueNone, Call: -1, At: s.at(n)}
	if e := t.NamedChild(n, 0); e != syntax.NoNode {
		r.Value = s.valueKind(e)
		v := t.Unparen(e)
		if v != syntax.NoNode && t.Kind(v) == syntax.Await {
			v = t.Unparen(t.NamedChild(v, 0))
		}
		if v != syntax.NoNode && t.Kind(v) == syntax.Call {
			r.Call = int32(len(s.sum.Calls)) // the next call in preorder is v
		}
	}
	s.sum.Returns = append(s.sum.Returns, r)
}

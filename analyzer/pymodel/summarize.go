package pymodel

import (
	"unsafe"

	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// Summarize reads one parsed file into a Summary in a single pass over its
// nodes. It never fails: on a tree with syntax errors it summarises what it
// can read and sets Partial. For many files, a Summarizer per goroutine
// reuses its buffers.
func Summarize(t *syntax.Tree) *Summary {
	var z Summarizer
	return z.Summarize(t)
}

// Summarizer summarises files one after the other, reusing its working
// buffers: the output of each file is copied out at exact size. It is not
// safe for concurrent use; give each worker its own.
type Summarizer struct {
	s summarizer
}

// Summarize is the package-level Summarize with reused buffers.
//
// Strings in the Summary are substrings of the tree's source, which they
// share without a copy: t.Src must not change afterwards (syntax.Tree
// already asks that of its source). A copy would cost a run over the
// stdlib 12 MB of memory, and the page faults to get it.
func (z *Summarizer) Summarize(t *syntax.Tree) *Summary {
	s := &z.s
	s.t = t
	s.src = unsafe.String(unsafe.SliceData(t.Src), len(t.Src))
	s.work.reset()
	s.sum = &s.work
	s.pos = posCursor{src: t.Src, line: 1}
	s.scopes = s.scopes[:0]
	s.frames = s.frames[:0]
	s.run()
	out := s.work.clone()
	s.t, s.src = nil, ""
	return out
}

type summarizer struct {
	t    *syntax.Tree
	src  string
	sum  *Summary // the working summary (= &work)
	work Summary
	pos  posCursor

	scopes   []scope
	frames   []tryFrame
	paramBuf []Param
}

func (s *Summary) reset() {
	*s = Summary{
		Classes: s.Classes[:0], Functions: s.Functions[:0], Calls: s.Calls[:0], Args: s.Args[:0],
		Imports: s.Imports[:0], Globals: s.Globals[:0], Uses: s.Uses[:0], Locals: s.Locals[:0],
		Tries: s.Tries[:0], Raises: s.Raises[:0], Returns: s.Returns[:0],
	}
}

// clone copies the working summary out at exact sizes (nil when empty).
func (s *Summary) clone() *Summary {
	return &Summary{
		Classes: exact(s.Classes), Functions: exact(s.Functions), Calls: exact(s.Calls), Args: exact(s.Args),
		Imports: exact(s.Imports), Globals: exact(s.Globals), Uses: exact(s.Uses), Locals: exact(s.Locals),
		Tries: exact(s.Tries), Raises: exact(s.Raises), Returns: exact(s.Returns), Partial: s.Partial,
	}
}

func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// scope is an open function or class body.
type scope struct {
	end   syntax.NodeID
	fn    int32 // function index, -1 for a class scope
	class int32 // class index for a class scope, -1 for a function
	// self: the name `self` has here ("" if none), the parameter index it
	// is (0 in a method, -1 when inherited from an enclosing method) and
	// the class it denotes.
	self      string
	selfParam int16
	selfClass int32
	tryBase   int      // frames below this index belong to enclosing functions
	typed     []string // locals that have a LocalType entry in this function
}

// tryFrame is an open part of a try statement.
type tryFrame struct {
	end     syntax.NodeID
	try     int32
	kind    uint8 // frameStmt, frameBody or frameHandler
	handler int16 // frameHandler: the handler's index; frameStmt: handlers seen
}

const (
	frameStmt = iota
	frameBody
	frameHandler
)

func (s *summarizer) run() {
	t := s.t
	n := syntax.NodeID(t.Len())
	for i := syntax.NodeID(0); i < n; i++ {
		for len(s.scopes) > 0 && s.scopes[len(s.scopes)-1].end <= i {
			s.scopes = s.scopes[:len(s.scopes)-1]
		}
		for len(s.frames) > 0 && s.frames[len(s.frames)-1].end <= i {
			s.frames = s.frames[:len(s.frames)-1]
		}
		if t.IsError(i) || t.IsMissing(i) {
			s.sum.Partial = true
		}
		switch t.Kind(i) {
		case syntax.Identifier:
			s.identifier(i)
		case syntax.Call:
			s.call(i)
		case syntax.Assignment:
			s.assignment(i)
		case syntax.FunctionDefinition:
			i = s.function(i)
		case syntax.Lambda:
			i = s.lambda(i)
		case syntax.ClassDefinition:
			i = s.class(i)
		case syntax.Decorator, syntax.Type:
			// Decorators are kept as text on the definition; annotations
			// are types, not code.
			i = t.SubtreeEnd(i) - 1
		case syntax.ImportStatement, syntax.ImportFromStatement, syntax.FutureImportStatement:
			s.imports(i)
			i = t.SubtreeEnd(i) - 1
		case syntax.TryStatement:
			s.tryStatement(i)
		case syntax.ExceptClause, syntax.ExceptGroupClause:
			s.handler(i)
		case syntax.RaiseStatement:
			s.raise(i)
		case syntax.ReturnStatement:
			s.ret(i)
		case syntax.Yield:
			if fn := s.fn(); fn >= 0 {
				s.sum.Functions[fn].Generator = true
			}
		}
	}
}

// fn is the innermost function (-1 at module level and in class bodies).
func (s *summarizer) fn() int32 {
	if len(s.scopes) == 0 {
		return -1
	}
	return s.scopes[len(s.scopes)-1].fn
}

func (s *summarizer) top() *scope {
	if len(s.scopes) == 0 {
		return nil
	}
	return &s.scopes[len(s.scopes)-1]
}

// text is n's source as a substring of the summary's source copy.
func (s *summarizer) text(n syntax.NodeID) string {
	return s.src[s.t.StartByte(n):s.t.EndByte(n)]
}

func (s *summarizer) at(n syntax.NodeID) Pos {
	start, end := s.t.StartByte(n), s.t.EndByte(n)
	line, col := s.pos.at(start)
	return Pos{Node: n, Start: int32(start), End: int32(end), Line: line, Col: col}
}

// tryAt returns the innermost try whose body holds the current node in the
// current function, and the innermost handler (try index, handler index).
func (s *summarizer) tryAt() (try int32, htry int32, h int16) {
	try, htry = -1, -1
	base := 0
	if sc := s.top(); sc != nil && sc.fn >= 0 {
		base = sc.tryBase
	}
	for k := len(s.frames) - 1; k >= base; k-- {
		f := s.frames[k]
		switch {
		case f.kind == frameBody && try < 0:
			try = f.try
		case f.kind == frameHandler && htry < 0:
			htry, h = f.try, f.handler
		}
	}
	return try, htry, h
}

// dotted reports whether n is a name or an attribute chain over a name,
// and returns its text with any whitespace inside removed.
func (s *summarizer) dotted(n syntax.NodeID) (string, bool) {
	t := s.t
	m := n
	for t.Kind(m) == syntax.Attribute {
		m = t.Field(m, syntax.FObject)
		if m == syntax.NoNode {
			return "", false
		}
	}
	if t.Kind(m) != syntax.Identifier {
		return "", false
	}
	txt := s.text(n)
	for i := 0; i < len(txt); i++ {
		if c := txt[i]; !(c == '.' || pyname.IsIdentByte(c)) {
			return compactDotted(txt), true
		}
	}
	return txt, true
}

// compactDotted drops whitespace, comments and line continuations from an
// attribute chain written over several lines (rare; allocates).
func compactDotted(txt string) string {
	b := make([]byte, 0, len(txt))
	for i := 0; i < len(txt); i++ {
		c := txt[i]
		switch {
		case c == '#':
			for i < len(txt) && txt[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' || c == '\f':
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// decorators returns the decorator texts of a definition.
func (s *summarizer) decorators(def syntax.NodeID) []string {
	t := s.t
	p := t.Parent(def)
	if p == syntax.NoNode || t.Kind(p) != syntax.DecoratedDefinition {
		return nil
	}
	var out []string
	for c := range t.NamedChildren(p) {
		if t.Kind(c) == syntax.Decorator {
			if e := t.NamedChild(c, 0); e != syntax.NoNode {
				out = append(out, s.text(e))
			}
		}
	}
	return out
}

// defStart is where a definition starts, decorators included.
func (s *summarizer) defStart(def syntax.NodeID) syntax.NodeID {
	if p := s.t.Parent(def); p != syntax.NoNode && s.t.Kind(p) == syntax.DecoratedDefinition {
		return p
	}
	return def
}

func (s *summarizer) class(n syntax.NodeID) syntax.NodeID {
	t := s.t
	body := t.Field(n, syntax.FBody)
	name := t.Field(n, syntax.FName)
	if body == syntax.NoNode || name == syntax.NoNode {
		return n // broken definition: read its inside as plain code
	}
	c := Class{Name: s.text(name), Func: -1, Outer: -1, Decorators: s.decorators(n)}
	c.At = s.at(s.defStart(n))
	c.NameAt = s.at(name)
	qual := c.Name
	if sc := s.top(); sc != nil {
		if sc.fn >= 0 {
			c.Func = sc.fn
			qual = s.sum.Functions[sc.fn].QualName + "." + c.Name
		} else {
			c.Outer = sc.class
			qual = s.sum.Classes[sc.class].QualName + "." + c.Name
		}
	}
	c.QualName = qual
	for _, d := range c.Decorators {
		if isDataclassDecorator(d) {
			c.Dataclass = true
		}
	}
	if sup := t.Field(n, syntax.FSuperclasses); sup != syntax.NoNode {
		for a := range t.NamedChildren(sup) {
			switch t.Kind(a) {
			case syntax.KeywordArgument:
				if k := t.Field(a, syntax.FName); k != syntax.NoNode && t.TextIs(k, "metaclass") {
					if v := t.Field(a, syntax.FValue); v != syntax.NoNode {
						c.Metaclass = s.text(v)
					}
				}
			case syntax.ListSplat, syntax.DictionarySplat:
			default:
				if d, ok := s.dotted(a); ok {
					c.Bases = append(c.Bases, d)
				} else {
					c.Bases = append(c.Bases, s.text(a)) // Generic[T] and the like: opaque
				}
			}
		}
	}
	idx := int32(len(s.sum.Classes))
	s.sum.Classes = append(s.sum.Classes, c)
	s.scopes = append(s.scopes, scope{end: t.SubtreeEnd(n), fn: -1, class: idx, selfClass: -1})
	return body - 1
}

func isDataclassDecorator(d string) bool {
	if i := indexByte(d, '('); i >= 0 {
		d = d[:i]
	}
	return d == "dataclass" || d == "dataclasses.dataclass" || hasSuffix(d, ".dataclass")
}

func (s *summarizer) function(n syntax.NodeID) syntax.NodeID {
	t := s.t
	body := t.Field(n, syntax.FBody)
	name := t.Field(n, syntax.FName)
	if body == syntax.NoNode || name == syntax.NoNode {
		return n
	}
	f := Function{Name: s.text(name), Class: -1, Parent: -1, SelfClass: -1, Decorators: s.decorators(n)}
	f.At = s.at(s.defStart(n))
	f.NameAt = s.at(name)
	f.Def = n
	if c := t.FirstChild(n); c != syntax.NoNode && t.Kind(c) == syntax.KwAsync {
		f.Async = true
	}
	sc := s.top()
	inClass := sc != nil && sc.fn < 0
	switch {
	case sc == nil:
		f.QualName = f.Name
	case inClass:
		f.Class = sc.class
		f.QualName = s.sum.Classes[sc.class].QualName + "." + f.Name
	default:
		f.Parent = sc.fn
		f.QualName = s.sum.Functions[sc.fn].QualName + "." + f.Name
	}
	if inClass {
		f.Kind = Method
	}
	for _, d := range f.Decorators {
		base := d
		if i := indexByte(base, '('); i >= 0 {
			base = base[:i]
		}
		switch {
		case base == "abstractmethod" || hasSuffix(base, ".abstractmethod"):
			f.Abstract = true
		case !inClass:
		case base == "staticmethod":
			f.Kind = StaticMethod
		case base == "classmethod":
			f.Kind = ClassMethod
		case base == "property" || base == "cached_property" || hasSuffix(base, ".cached_property") ||
			hasSuffix(base, ".setter") || hasSuffix(base, ".getter") || hasSuffix(base, ".deleter"):
			f.Kind = Property
		}
	}
	if ps := t.Field(n, syntax.FParameters); ps != syntax.NoNode {
		f.Params = s.params(ps)
	}
	if rt := t.Field(n, syntax.FReturnType); rt != syntax.NoNode {
		f.Returns = s.text(rt)
		f.ReturnsOptional = s.optionalType(rt)
	}
	f.Stub = s.isStub(body)
	f.FallsOff = !s.blockExits(body)

	idx := int32(len(s.sum.Functions))
	ns := scope{end: t.SubtreeEnd(n), fn: idx, class: -1, selfParam: -1, selfClass: -1, tryBase: len(s.frames)}
	if inClass && (f.Kind == Method || f.Kind == Property) && len(f.Params) > 0 && f.Params[0].Kind == Positional {
		ns.self, ns.selfParam, ns.selfClass = f.Params[0].Name, 0, sc.class
	} else if sc != nil && sc.fn >= 0 && sc.self != "" && !hasParam(f.Params, sc.self) {
		ns.self, ns.selfClass = sc.self, sc.selfClass
	}
	f.SelfClass = ns.selfClass
	s.sum.Functions = append(s.sum.Functions, f)
	if inClass {
		s.sum.Classes[sc.class].Methods = append(s.sum.Classes[sc.class].Methods, idx)
	}
	s.scopes = append(s.scopes, ns)
	return body - 1
}

func (s *summarizer) lambda(n syntax.NodeID) syntax.NodeID {
	t := s.t
	body := t.Field(n, syntax.FBody)
	if body == syntax.NoNode {
		return n
	}
	f := Function{Name: "<lambda>", Kind: Lambda, Class: -1, Parent: -1, SelfClass: -1, Def: n}
	f.At = s.at(n)
	f.NameAt = s.at(t.FirstChild(n))
	sc := s.top()
	f.QualName = "<lambda>"
	if sc != nil {
		if sc.fn >= 0 {
			f.Parent = sc.fn
			f.QualName = s.sum.Functions[sc.fn].QualName + ".<lambda>"
		} else {
			f.QualName = s.sum.Classes[sc.class].QualName + ".<lambda>"
		}
	}
	if ps := t.Field(n, syntax.FParameters); ps != syntax.NoNode {
		f.Params = s.params(ps)
	}
	idx := int32(len(s.sum.Functions))
	ns := scope{end: t.SubtreeEnd(n), fn: idx, class: -1, selfParam: -1, selfClass: -1, tryBase: len(s.frames)}
	if sc != nil && sc.fn >= 0 && sc.self != "" && !hasParam(f.Params, sc.self) {
		ns.self, ns.selfClass = sc.self, sc.selfClass
	}
	f.SelfClass = ns.selfClass
	s.sum.Functions = append(s.sum.Functions, f)
	s.scopes = append(s.scopes, ns)
	// A lambda passed as an argument: point the argument at it.
	if p := t.Parent(n); p != syntax.NoNode && (t.Kind(p) == syntax.ArgumentList || t.Kind(p) == syntax.KeywordArgument) {
		for k := len(s.sum.Args) - 1; k >= 0 && k >= len(s.sum.Args)-64; k-- {
			if s.sum.Args[k].At.Node == n {
				s.sum.Args[k].Lambda = idx
				break
			}
		}
	}
	return body - 1
}

func hasParam(ps []Param, name string) bool {
	for i := range ps {
		if ps[i].Name == name {
			return true
		}
	}
	return false
}

// params reads a parameters or lambda_parameters node.
func (s *summarizer) params(ps syntax.NodeID) []Param {
	t := s.t
	out := s.paramBuf[:0]
	defer func() { s.paramBuf = out[:0] }()
	kwOnly := false
	var pos int16
	for c := range t.NamedChildren(ps) {
		p := Param{Index: -1}
		k := t.Kind(c)
		nameNode := syntax.NoNode
		switch k {
		case syntax.Identifier:
			nameNode = c
		case syntax.TypedParameter:
			// The name is the first named child: an identifier or a splat.
			nameNode = t.NamedChild(c, 0)
		case syntax.DefaultParameter, syntax.TypedDefaultParameter:
			nameNode = t.Field(c, syntax.FName)
		case syntax.ListSplatPattern, syntax.DictionarySplatPattern:
			nameNode = c
		case syntax.KeywordSeparator:
			kwOnly = true
			continue
		default: // positional_separator, comments, errors
			continue
		}
		if nameNode == syntax.NoNode {
			continue
		}
		switch t.Kind(nameNode) {
		case syntax.ListSplatPattern:
			p.Kind = VarArgs
			kwOnly = true
			nameNode = t.NamedChild(nameNode, 0)
		case syntax.DictionarySplatPattern:
			p.Kind = VarKw
			nameNode = t.NamedChild(nameNode, 0)
		default:
			if kwOnly {
				p.Kind = KeywordOnly
			} else {
				p.Index = pos
				pos++
			}
		}
		if nameNode == syntax.NoNode || t.Kind(nameNode) != syntax.Identifier {
			continue
		}
		p.Name = s.text(nameNode)
		p.At = s.at(c)
		if ty := t.Field(c, syntax.FType); ty != syntax.NoNode {
			p.Annotation = s.text(ty)
			p.Optional = s.optionalType(ty)
		}
		if v := t.Field(c, syntax.FValue); v != syntax.NoNode {
			p.HasDefault = true
			p.Default = s.text(v)
			p.DefaultKind = s.valueKind(v)
			if p.DefaultKind == ValueNone {
				p.Optional = true
			}
		}
		out = append(out, p)
	}
	return exact(out)
}

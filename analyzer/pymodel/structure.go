package pymodel

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// posCursor turns byte offsets into line and column. The summarizer asks
// for offsets in (almost always) increasing order, so it moves forward
// counting newlines; a step back falls back to a binary search over line
// starts built on first need.
type posCursor struct {
	src       []byte
	off       int // offsets before off are accounted for
	line      int // line holding off (1-based)
	lineStart int
	starts    []uint32
}

func (c *posCursor) at(off int) (line, col int32) {
	if off > len(c.src) {
		off = len(c.src)
	}
	if off < c.off && off >= c.lineStart {
		// A step back within the current line (method chains, a call's
		// receiver after its arguments): no line search needed.
		return int32(c.line), int32(runeCount(c.src[c.lineStart:off]) + 1)
	}
	if off >= c.off {
		seg := c.src[c.off:off]
		if n := bytes.Count(seg, nl); n > 0 {
			c.line += n
			c.lineStart = c.off + bytes.LastIndexByte(seg, '\n') + 1
		}
		c.off = off
		return int32(c.line), int32(runeCount(c.src[c.lineStart:off]) + 1)
	}
	if c.starts == nil {
		c.starts = syntax.LineStarts(c.src)
	}
	l := sort.Search(len(c.starts), func(i int) bool { return int(c.starts[i]) > off }) - 1
	l = max(l, 0)
	return int32(l + 1), int32(runeCount(c.src[c.starts[l]:off]) + 1)
}

var nl = []byte{'\n'}

func runeCount(b []byte) int {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return utf8.RuneCount(b)
		}
	}
	return len(b)
}

// statements iterates over a block's statements, skipping comments.
func (s *summarizer) lastStatement(block syntax.NodeID) syntax.NodeID {
	last := syntax.NoNode
	for c := range s.t.NamedChildren(block) {
		last = c
	}
	return last
}

// isStub: a body that is only a docstring, `pass`, `...` or a raise of
// NotImplementedError.
func (s *summarizer) isStub(body syntax.NodeID) bool {
	t := s.t
	i := 0
	for c := range t.NamedChildren(body) {
		switch t.Kind(c) {
		case syntax.ExpressionStatement:
			e := t.NamedChild(c, 0)
			if e == syntax.NoNode {
				return false
			}
			switch t.Kind(e) {
			case syntax.String, syntax.ConcatenatedString:
				if i > 0 {
					return false
				}
			case syntax.Ellipsis:
			default:
				return false
			}
		case syntax.PassStatement:
		case syntax.RaiseStatement:
			e := t.Unparen(t.NamedChild(c, 0))
			if k := kindOf(t, e); k == syntax.Call {
				e = t.Field(e, syntax.FFunction)
			}
			if e == syntax.NoNode {
				return false
			}
			if txt := s.exprText(e); txt != "NotImplementedError" && txt != "NotImplemented" {
				return false
			}
		default:
			return false
		}
		i++
	}
	return true
}

// blockExits reports whether control can never run off the end of block:
// its last statement returns, raises, or is a compound statement all of
// whose branches exit. It is structural (no CFG) and conservative: when
// unsure it says the block may fall off.
func (s *summarizer) blockExits(block syntax.NodeID) bool {
	if block == syntax.NoNode {
		return false
	}
	return s.stmtExits(s.lastStatement(block))
}

func (s *summarizer) stmtExits(st syntax.NodeID) bool {
	t := s.t
	if st == syntax.NoNode {
		return false
	}
	if cfg.ExitsProcess(t, st) {
		return true
	}
	switch t.Kind(st) {
	case syntax.ReturnStatement, syntax.RaiseStatement:
		return true
	case syntax.IfStatement:
		if !s.blockExits(t.Field(st, syntax.FConsequence)) {
			return false
		}
		hasElse := false
		for c := range t.FieldAll(st, syntax.FAlternative) {
			switch t.Kind(c) {
			case syntax.ElifClause:
				if !s.blockExits(t.Field(c, syntax.FConsequence)) {
					return false
				}
			case syntax.ElseClause:
				hasElse = true
				if !s.blockExits(t.Field(c, syntax.FBody)) {
					return false
				}
			}
		}
		return hasElse
	case syntax.WithStatement:
		return s.blockExits(t.Field(st, syntax.FBody))
	case syntax.TryStatement:
		var els, fin syntax.NodeID = syntax.NoNode, syntax.NoNode
		handlersExit := true
		for c := range t.NamedChildren(st) {
			switch t.Kind(c) {
			case syntax.ElseClause:
				els = t.Field(c, syntax.FBody)
			case syntax.FinallyClause:
				fin = s.lastBlock(c)
			case syntax.ExceptClause, syntax.ExceptGroupClause:
				if !s.blockExits(s.lastBlock(c)) {
					handlersExit = false
				}
			}
		}
		if fin != syntax.NoNode && s.blockExits(fin) {
			return true
		}
		main := t.Field(st, syntax.FBody)
		if els != syntax.NoNode {
			main = els
		}
		return handlersExit && s.blockExits(main)
	case syntax.WhileStatement:
		cond := t.Unparen(t.Field(st, syntax.FCondition))
		if cond == syntax.NoNode || !(t.Kind(cond) == syntax.True || t.Kind(cond) == syntax.Integer && !t.TextIs(cond, "0")) {
			return false
		}
		return !s.breaks(t.Field(st, syntax.FBody))
	case syntax.ExpressionStatement:
		e := t.NamedChild(st, 0)
		if kindOf(t, e) != syntax.Call {
			return false
		}
		f := t.Field(e, syntax.FFunction)
		if f == syntax.NoNode {
			return false
		}
		switch s.exprText(f) {
		case "sys.exit", "os._exit", "exit", "quit", "os.abort":
			return true
		}
	}
	return false
}

// lastBlock is the last block child of a clause (except/finally clauses
// hold their block without a field).
func (s *summarizer) lastBlock(clause syntax.NodeID) syntax.NodeID {
	b := syntax.NoNode
	for c := range s.t.NamedChildren(clause) {
		if s.t.Kind(c) == syntax.Block {
			b = c
		}
	}
	return b
}

// breaks reports a break in body that leaves the loop owning body (not one
// of a nested loop, function or class).
func (s *summarizer) breaks(body syntax.NodeID) bool {
	t := s.t
	if body == syntax.NoNode {
		return false
	}
	end := t.SubtreeEnd(body)
	for i := body; i < end; i++ {
		switch t.Kind(i) {
		case syntax.BreakStatement:
			return true
		case syntax.ForStatement, syntax.WhileStatement, syntax.FunctionDefinition, syntax.ClassDefinition, syntax.Lambda:
			// A nested loop's else clause may break the outer loop; count it.
			for c := range t.NamedChildren(i) {
				if t.Kind(c) == syntax.ElseClause && s.breaks(t.Field(c, syntax.FBody)) {
					k := t.Kind(i)
					if k == syntax.ForStatement || k == syntax.WhileStatement {
						return true
					}
				}
			}
			i = t.SubtreeEnd(i) - 1
		}
	}
	return false
}

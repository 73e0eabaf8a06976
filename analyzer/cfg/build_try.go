package cfg

import (
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

// jumpOut ends the current block with a jump of kind k (break, continue,
// return, raise) routed through the enclosing frames; the current point
// becomes unreachable.
func (b *builder) jumpOut(k jump, ek EdgeKind) {
	from := b.cur
	b.cur = NoBlock
	b.route(from, k, ek, len(b.frames), syntax.NoNode, false)
}

// route adds the edge that carries a jump of kind k from block `from` out
// through frames[:top]: to a loop's exit or head, a try's dispatch, or a
// copy of a finally body that continues the jump outward.
func (b *builder) route(from BlockID, k jump, ek EdgeKind, top int, cond syntax.NodeID, v bool) {
	if from == NoBlock {
		return
	}
	for i := top - 1; i >= 0; i-- {
		switch f := b.frames[i]; f.kind {
		case frameLoop:
			switch k {
			case jumpBreak:
				b.edge(from, f.brk, ek, cond, v)
				return
			case jumpContinue:
				b.edge(from, f.cont, ek, cond, v)
				return
			}
		case frameTry:
			if k == jumpRaise {
				b.edge(from, f.dispatch, ek, cond, v)
				return
			}
		case frameFinally:
			b.edge(from, b.finallyCopy(i, k), ek, cond, v)
			return
		}
	}
	switch k {
	case jumpReturn:
		b.edge(from, Return, ek, cond, v)
	case jumpRaise:
		b.edge(from, Raise, ek, cond, v)
	}
	// break/continue outside a loop is a syntax error: no edge.
}

// exceptionEdge gives block `from`, which is about to evaluate its first
// node, an Exception edge to the innermost handler, if it is inside a try.
func (b *builder) exceptionEdge(from BlockID) {
	for i := len(b.frames) - 1; i >= 0; i-- {
		switch b.frames[i].kind {
		case frameTry:
			b.edge(from, b.frames[i].dispatch, Exception, syntax.NoNode, false)
			return
		case frameFinally:
			b.edge(from, b.finallyCopy(i, jumpRaise), Exception, syntax.NoNode, false)
			return
		}
	}
}

// finallyCopy returns the entry of the copy of frame i's finally body that
// runs on jumps of kind k, building it on first use. The copy runs in the
// frames outside the try and then continues the jump.
func (b *builder) finallyCopy(i int, k jump) BlockID {
	if c := b.frames[i].copies[k]; c != 0 { // block 0 is the entry, never a copy
		return c
	}
	fin := b.frames[i].fin
	entry := b.newBlock(KindFinally, fin)
	b.frames[i].copies[k] = entry
	// A copy may be built in the middle of an expression (from add): save
	// the expression state as well as the position and frames.
	savedCur, savedFrames, savedAt, savedIn := b.cur, b.frames, b.splitAt, b.inSplit
	b.frames = slices.Clip(savedFrames[:i]) // appends must not clobber frames[i:]
	b.cur, b.splitAt, b.inSplit = entry, nil, false
	b.finallyBody(fin)
	ek := Normal
	if k == jumpRaise {
		ek = RaiseEdge // the exception is re-raised at the end of finally
	}
	from := b.cur
	b.cur = NoBlock
	b.route(from, k, ek, len(b.frames), syntax.NoNode, false)
	b.cur, b.frames, b.splitAt, b.inSplit = savedCur, savedFrames, savedAt, savedIn
	return entry
}

// finallyBody lowers a finally clause's statements at the current point;
// past the block budget it becomes one opaque node (see maxBlocks).
func (b *builder) finallyBody(fin syntax.NodeID) {
	if len(b.g.Blocks) > b.budget {
		b.add(fin)
		return
	}
	if blk := b.blockChild(fin); blk != syntax.NoNode {
		b.stmts(blk)
	}
}

func (b *builder) tryStmt(n syntax.NodeID) {
	t := b.t
	b.mark(n)
	var clauses []syntax.NodeID
	elseC, finC := syntax.NoNode, syntax.NoNode
	for c := range t.NamedChildren(n) {
		if t.IsError(c) {
			continue
		}
		switch t.Kind(c) {
		case syntax.ExceptClause, syntax.ExceptGroupClause:
			clauses = append(clauses, c)
		case syntax.ElseClause:
			elseC = c
		case syntax.FinallyClause:
			finC = c
		}
	}
	after := b.newBlock(KindTryDone, n)
	base := len(b.frames)
	finNormal := NoBlock // where normal completions meet to run finally
	if finC != syntax.NoNode {
		b.frames = append(b.frames, frame{kind: frameFinally, fin: finC})
	}
	complete := func() {
		if b.cur == NoBlock {
			return
		}
		if finC == syntax.NoNode {
			b.goTo(after)
		} else {
			if finNormal == NoBlock {
				finNormal = b.newBlock(KindFinally, finC)
			}
			b.goTo(finNormal)
		}
		b.cur = NoBlock
	}

	dispatch := NoBlock
	if len(clauses) > 0 {
		dispatch = b.newBlock(KindDispatch, clauses[0])
		b.frames = append(b.frames, frame{kind: frameTry, dispatch: dispatch})
	}
	b.fresh(KindTryBody, n)
	b.body(n, syntax.FBody)
	if dispatch != NoBlock {
		b.frames = b.frames[:len(b.frames)-1]
	}
	if elseC != syntax.NoNode && b.cur != NoBlock {
		b.fresh(KindTryElse, elseC)
		b.body(elseC, syntax.FBody)
	}
	complete()

	test := dispatch
	for i, c := range clauses {
		b.cur = test
		b.mark(c)
		typ, alias := exceptParts(t, c)
		if typ != syntax.NoNode {
			b.expr(typ)
		}
		handler := b.newBlock(KindHandler, c)
		b.edge(b.cur, handler, Normal, c, true)
		test = NoBlock
		if !catchesAll(t, typ) {
			if i+1 < len(clauses) {
				test = b.newBlock(KindDispatch, clauses[i+1])
				b.edge(b.cur, test, Normal, c, false)
			} else {
				// No clause caught it: the exception goes on outward.
				b.route(b.cur, jumpRaise, RaiseEdge, len(b.frames), c, false)
			}
		}
		b.cur = handler
		if alias != syntax.NoNode {
			b.add(alias) // binds the exception
		}
		if blk := b.blockChild(c); blk != syntax.NoNode {
			b.stmts(blk)
		}
		complete()
	}
	b.frames = b.frames[:base]
	if finNormal != NoBlock {
		b.cur = finNormal
		b.finallyBody(finC)
		b.goTo(after)
	}
	b.cur = after
}

// exceptParts splits an except clause into the exception type expression
// (NoNode for a bare except) and the `as` target (NoNode if none).
func exceptParts(t *syntax.Tree, c syntax.NodeID) (typ, alias syntax.NodeID) {
	typ, alias = syntax.NoNode, syntax.NoNode
	v := t.Field(c, syntax.FValue)
	if v == syntax.NoNode {
		// Older shapes keep the type as the first named child.
		if first := t.NamedChild(c, 0); first != syntax.NoNode && t.Kind(first) != syntax.Block {
			v = first
		}
	}
	if v == syntax.NoNode || t.IsError(v) {
		return typ, alias
	}
	if t.Kind(v) == syntax.AsPattern {
		alias = t.Field(v, syntax.FAlias)
		v = t.NamedChild(v, 0)
	}
	if a := t.Field(c, syntax.FAlias); a != syntax.NoNode && alias == syntax.NoNode {
		alias = a
	}
	return v, alias
}

// catchesAll reports an except clause that catches every exception: a bare
// except or BaseException.
func catchesAll(t *syntax.Tree, typ syntax.NodeID) bool {
	return typ == syntax.NoNode || t.TextIs(typ, "BaseException")
}

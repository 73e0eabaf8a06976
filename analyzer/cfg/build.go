package cfg

import (
	"slices"

	"github.com/sglint/sglint/analyzer/syntax"
)

// BlockKind says why a block exists; it only serves readability (goldens,
// debugging), analyses must not depend on it.
type BlockKind uint8

const (
	KindBody BlockKind = iota
	KindEntry
	KindReturn
	KindRaise
	KindUnreachable
	KindIfThen
	KindIfElse
	KindIfDone
	KindCondNext // the right operand of and/or
	KindCondThen // an arm of a conditional expression
	KindCondElse
	KindCondDone
	KindLoopHead
	KindLoopBody
	KindLoopElse
	KindLoopDone
	KindTryBody
	KindDispatch // tests one except clause
	KindHandler
	KindTryElse
	KindFinally
	KindTryDone
	KindCaseTest
	KindCaseGuard
	KindCaseBody
	KindMatchDone
	KindAssertFail
	KindAssertDone
)

var blockKindNames = [...]string{
	KindBody: "body", KindEntry: "entry", KindReturn: "return", KindRaise: "raise",
	KindUnreachable: "unreachable", KindIfThen: "if.then", KindIfElse: "if.else",
	KindIfDone: "if.done", KindCondNext: "cond.next", KindCondThen: "cond.then",
	KindCondElse: "cond.else", KindCondDone: "cond.done", KindLoopHead: "loop.head",
	KindLoopBody: "loop.body", KindLoopElse: "loop.else", KindLoopDone: "loop.done",
	KindTryBody: "try.body", KindDispatch: "try.dispatch", KindHandler: "try.handler",
	KindTryElse: "try.else", KindFinally: "try.finally", KindTryDone: "try.done",
	KindCaseTest: "case.test", KindCaseGuard: "case.guard", KindCaseBody: "case.body",
	KindMatchDone: "match.done", KindAssertFail: "assert.fail", KindAssertDone: "assert.done",
}

func (k BlockKind) String() string {
	if int(k) < len(blockKindNames) {
		return blockKindNames[k]
	}
	return "?"
}

// Finally duplication is bounded by a block budget proportional to the
// root's size: past it, a finally body reached on a further path becomes one
// opaque node instead of a copy, so pathological nesting (try/finally inside
// finally, many levels deep) stays linear. Real code never comes close.
const (
	blocksPerNode = 2
	minBudget     = 1024
	maxBlocks     = 1 << 15
)

type builder struct {
	t      *syntax.Tree
	g      *Graph
	cur    BlockID // NoBlock: the current point is unreachable
	frames []frame
	splits []syntax.NodeID // split nodes (see Graph.IsSplit)
	budget int             // see maxBlocks

	// Block nodes are collected flat, in order, and grouped per block by
	// finish: one allocation per graph instead of one per block.
	items  []item
	counts []int32 // nodes so far in each block

	// Short-circuit positions inside the expression being lowered (see
	// expr); inSplit is set while lowering one.
	splitAt []syntax.NodeID
	inSplit bool
}

type item struct {
	b BlockID
	n syntax.NodeID
}

type frameKind uint8

const (
	frameLoop    frameKind = iota
	frameTry               // a try body with except clauses
	frameFinally           // a try statement with a finally clause
)

// jump is the kind of non-local transfer that crosses frames.
type jump uint8

const (
	jumpBreak jump = iota
	jumpContinue
	jumpReturn
	jumpRaise
	nJumps
)

type frame struct {
	kind      frameKind
	brk, cont BlockID       // frameLoop
	dispatch  BlockID       // frameTry
	fin       syntax.NodeID // frameFinally: the finally_clause
	copies    [nJumps]BlockID
}

// New builds the graph of root: a module, function_definition, lambda or
// class_definition node of t. For any other node it returns a graph that
// evaluates nothing.
func New(t *syntax.Tree, root syntax.NodeID) *Graph {
	// Most graphs are small: one right-sized allocation each.
	g := &Graph{Tree: t, Root: root, Blocks: make([]Block, 0, 8), edges: make([]Edge, 0, 8), sites: make([]Site, 0, 8)}
	b := &builder{t: t, g: g, budget: minBudget, items: make([]item, 0, 8), counts: make([]int32, 0, 8)}
	if root >= 0 && int(root) < t.Len() {
		b.budget = min(maxBlocks, minBudget+blocksPerNode*int(t.SubtreeEnd(root)-root))
	}
	b.newBlock(KindEntry, syntax.NoNode)
	b.newBlock(KindReturn, syntax.NoNode)
	b.newBlock(KindRaise, syntax.NoNode)
	b.cur = Entry
	if root >= 0 && int(root) < t.Len() {
		switch t.Kind(root) {
		case syntax.Module:
			b.stmts(root)
		case syntax.FunctionDefinition, syntax.ClassDefinition:
			if body := t.Field(root, syntax.FBody); body != syntax.NoNode {
				b.stmts(body)
			}
		case syntax.Lambda:
			if body := t.Field(root, syntax.FBody); body != syntax.NoNode {
				b.expr(body)
			}
		}
	}
	b.edge(b.cur, Return, Normal, syntax.NoNode, false)
	b.finish()
	return g
}

func (b *builder) newBlock(k BlockKind, stmt syntax.NodeID) BlockID {
	id := BlockID(len(b.g.Blocks))
	b.g.Blocks = append(b.g.Blocks, Block{ID: id, Kind: k, Stmt: stmt})
	b.counts = append(b.counts, 0)
	return id
}

// edge adds an edge from `from`; nothing when from is unreachable.
func (b *builder) edge(from, to BlockID, k EdgeKind, cond syntax.NodeID, v bool) {
	if from == NoBlock || to == NoBlock {
		return
	}
	b.g.edges = append(b.g.edges, Edge{From: from, To: to, Kind: k, Cond: cond, Value: v})
}

// goTo ends the current block with a jump to `to` and continues there.
func (b *builder) goTo(to BlockID) {
	b.edge(b.cur, to, Normal, syntax.NoNode, false)
	b.cur = to
}

// fresh ends the current block and starts a new one of kind k (reachable
// from the current point if that is reachable).
func (b *builder) fresh(k BlockKind, stmt syntax.NodeID) {
	b.goTo(b.newBlock(k, stmt))
}

// reach makes sure there is a current block (an unreachable one if control
// cannot get here) so that nodes and sites have somewhere to live.
func (b *builder) reach(stmt syntax.NodeID) {
	if b.cur == NoBlock {
		b.cur = b.newBlock(KindUnreachable, stmt)
	}
}

// add appends n to the current block. A block's first node inside a try
// gives the block its Exception edge to the innermost handler.
func (b *builder) add(n syntax.NodeID) {
	b.reach(n)
	cur := b.cur
	if b.counts[cur] == 0 {
		b.exceptionEdge(cur)
	}
	b.g.sites = append(b.g.sites, Site{Node: n, Block: cur, Index: b.counts[cur]})
	b.counts[cur]++
	b.items = append(b.items, item{cur, n})
}

// mark records that the evaluation of compound node n starts here.
func (b *builder) mark(n syntax.NodeID) {
	b.reach(n)
	b.g.sites = append(b.g.sites, Site{Node: n, Block: b.cur, Index: b.counts[b.cur]})
}

// stmts lowers the statements of a block (or module) in order.
func (b *builder) stmts(block syntax.NodeID) {
	for c := range b.t.NamedChildren(block) {
		b.stmt(c)
	}
}

func (b *builder) stmt(n syntax.NodeID) {
	t := b.t
	if t.IsError(n) {
		return
	}
	switch t.Kind(n) {
	case syntax.IfStatement:
		b.ifStmt(n)
	case syntax.WhileStatement:
		b.whileStmt(n)
	case syntax.ForStatement:
		b.forStmt(n)
	case syntax.TryStatement:
		b.tryStmt(n)
	case syntax.WithStatement:
		b.withStmt(n)
	case syntax.MatchStatement:
		b.matchStmt(n)
	case syntax.AssertStatement:
		b.assertStmt(n)
	case syntax.ReturnStatement:
		b.expr(n)
		b.jumpOut(jumpReturn, Normal)
	case syntax.RaiseStatement:
		b.expr(n)
		b.jumpOut(jumpRaise, RaiseEdge)
	case syntax.BreakStatement:
		b.add(n)
		b.jumpOut(jumpBreak, Normal)
	case syntax.ContinueStatement:
		b.add(n)
		b.jumpOut(jumpContinue, Normal)
	case syntax.FunctionDefinition, syntax.ClassDefinition, syntax.DecoratedDefinition:
		// Runs decorators, defaults and bases here; the body is elsewhere.
		b.add(n)
	case syntax.Block:
		b.stmts(n)
	case syntax.Comment:
	default:
		b.expr(n)
		if ExitsProcess(t, n) {
			b.jumpOut(jumpRaise, RaiseEdge)
		}
	}
}

// body lowers the block that hangs under field f of n, if any.
func (b *builder) body(n syntax.NodeID, f syntax.Field) {
	if blk := b.t.Field(n, f); blk != syntax.NoNode && !b.t.IsError(blk) {
		b.stmts(blk)
	}
}

// blockChild is the first block child of n (except and finally clauses
// keep theirs without a field).
func (b *builder) blockChild(n syntax.NodeID) syntax.NodeID {
	for c := range b.t.NamedChildren(n) {
		if b.t.Kind(c) == syntax.Block {
			return c
		}
	}
	return syntax.NoNode
}

func (b *builder) ifStmt(n syntax.NodeID) {
	t := b.t
	b.mark(n)
	done := b.newBlock(KindIfDone, n)
	cond := t.Field(n, syntax.FCondition)
	clause := n
	for {
		then := b.newBlock(KindIfThen, clause)
		// The next alternative of this clause: elif, else, or nothing.
		next := syntax.NoNode
		if clause == n {
			next = t.Field(n, syntax.FAlternative)
		} else {
			for s := t.NextSibling(clause); s != syntax.NoNode; s = t.NextSibling(s) {
				if t.FieldOf(s) == syntax.FAlternative {
					next = s
					break
				}
			}
		}
		elseBlk := done
		if next != syntax.NoNode {
			elseBlk = b.newBlock(KindIfElse, next)
		}
		b.cond(cond, then, elseBlk)
		b.cur = then
		b.body(clause, syntax.FConsequence)
		b.goTo(done)
		b.cur = elseBlk
		if next == syntax.NoNode {
			break
		}
		if t.Kind(next) == syntax.ElifClause {
			clause, cond = next, t.Field(next, syntax.FCondition)
			continue
		}
		b.body(next, syntax.FBody) // else clause
		b.goTo(done)
		break
	}
	b.cur = done
}

func (b *builder) whileStmt(n syntax.NodeID) {
	t := b.t
	head := b.newBlock(KindLoopHead, n)
	b.goTo(head)
	b.mark(n)
	body := b.newBlock(KindLoopBody, n)
	done := b.newBlock(KindLoopDone, n)
	alt := t.Field(n, syntax.FAlternative)
	exhausted := done
	if alt != syntax.NoNode {
		exhausted = b.newBlock(KindLoopElse, alt)
	}
	b.cond(t.Field(n, syntax.FCondition), body, exhausted)
	b.loopBody(n, body, head, done)
	if alt != syntax.NoNode {
		b.cur = exhausted
		b.body(alt, syntax.FBody)
		b.goTo(done)
	}
	b.cur = done
}

func (b *builder) forStmt(n syntax.NodeID) {
	t := b.t
	b.mark(n)
	b.expr(t.Field(n, syntax.FRight))
	head := b.newBlock(KindLoopHead, n)
	b.goTo(head)
	body := b.newBlock(KindLoopBody, n)
	done := b.newBlock(KindLoopDone, n)
	alt := t.Field(n, syntax.FAlternative)
	exhausted := done
	if alt != syntax.NoNode {
		exhausted = b.newBlock(KindLoopElse, alt)
	}
	b.edge(head, body, Normal, n, true)
	b.edge(head, exhausted, Normal, n, false)
	b.cur = body
	if left := t.Field(n, syntax.FLeft); left != syntax.NoNode && !t.IsError(left) {
		b.add(left) // binds the loop variables
	}
	b.loopBody(n, body, head, done)
	if alt != syntax.NoNode {
		b.cur = exhausted
		b.body(alt, syntax.FBody)
		b.goTo(done)
	}
	b.cur = done
}

// loopBody lowers n's body starting at block body (current or not) with
// break going to done and continue to head, then loops back.
func (b *builder) loopBody(n syntax.NodeID, body, head, done BlockID) {
	b.cur = body
	b.frames = append(b.frames, frame{kind: frameLoop, brk: done, cont: head})
	b.body(n, syntax.FBody)
	b.frames = b.frames[:len(b.frames)-1]
	b.goTo(head)
}

func (b *builder) withStmt(n syntax.NodeID) {
	t := b.t
	b.mark(n)
	for c := range t.NamedChildren(n) {
		if t.Kind(c) != syntax.WithClause {
			continue
		}
		for item := range t.NamedChildren(c) {
			if t.Kind(item) == syntax.WithItem {
				b.expr(item) // evaluates the context manager and binds its target
			}
		}
	}
	b.body(n, syntax.FBody)
}

func (b *builder) assertStmt(n syntax.NodeID) {
	b.mark(n)
	test := b.t.NamedChild(n, 0)
	msg := b.t.NamedChild(n, 1)
	fail := b.newBlock(KindAssertFail, n)
	done := b.newBlock(KindAssertDone, n)
	b.cond(test, done, fail)
	b.cur = fail
	if msg != syntax.NoNode {
		b.expr(msg) // evaluated only when the assertion fails
	}
	b.jumpOut(jumpRaise, RaiseEdge)
	b.cur = done
}

func (b *builder) matchStmt(n syntax.NodeID) {
	t := b.t
	b.mark(n)
	b.expr(t.Field(n, syntax.FSubject))
	done := b.newBlock(KindMatchDone, n)
	body := t.Field(n, syntax.FBody)
	if body == syntax.NoNode {
		b.goTo(done)
		return
	}
	first := true
	for c := range t.NamedChildren(body) {
		if t.Kind(c) != syntax.CaseClause || t.IsError(c) {
			continue
		}
		if first { // later clauses start in the previous one's no-match block
			b.fresh(KindCaseTest, c)
			first = false
		}
		for p := range t.NamedChildren(c) {
			if t.Kind(p) == syntax.CasePattern {
				b.add(p) // evaluates value patterns, binds captures
			}
		}
		cbody := b.newBlock(KindCaseBody, c)
		next := b.newBlock(KindCaseTest, t.NextSibling(c))
		guard := t.Field(c, syntax.FGuard)
		switch {
		case guard != syntax.NoNode:
			g := b.newBlock(KindCaseGuard, c)
			b.edge(b.cur, g, Normal, c, true)
			b.edge(b.cur, next, Normal, c, false)
			b.cur = g
			b.cond(t.NamedChild(guard, 0), cbody, next)
		case irrefutable(t, c):
			b.goTo(cbody)
		default:
			b.edge(b.cur, cbody, Normal, c, true)
			b.edge(b.cur, next, Normal, c, false)
		}
		b.cur = cbody
		b.body(c, syntax.FConsequence)
		b.goTo(done)
		b.cur = next
	}
	b.goTo(done) // no case matched
}

// irrefutable reports a case clause that always matches: `case _:` or a
// bare capture `case x:`.
func irrefutable(t *syntax.Tree, c syntax.NodeID) bool {
	var pats []syntax.NodeID
	for p := range t.NamedChildren(c) {
		if t.Kind(p) == syntax.CasePattern {
			pats = append(pats, p)
		}
	}
	if len(pats) != 1 {
		return false
	}
	p := pats[0]
	inner := t.NamedChild(p, 0)
	if inner == syntax.NoNode {
		return t.TextIs(p, "_")
	}
	if t.Kind(inner) != syntax.DottedName || t.NamedChild(p, 1) != syntax.NoNode {
		return false
	}
	return t.NamedChild(inner, 1) == syntax.NoNode // one name: a capture
}

// finish freezes the graph: nodes and edges grouped by block, sites
// sorted, then dominators.
func (b *builder) finish() {
	g := b.g
	n := len(g.Blocks)
	arena := make([]int32, 3*(n+1))
	counts, pos, off := arena[:n+1], arena[n+1:2*n+2], arena[2*n+2:]

	// Nodes: one array, each block's slice in creation order.
	nodes := make([]syntax.NodeID, len(b.items))
	for i, c := range b.counts {
		off[i+1] = off[i] + c
	}
	copy(pos, off)
	for _, it := range b.items {
		nodes[pos[it.b]] = it.n
		pos[it.b]++
	}
	for i := range g.Blocks {
		g.Blocks[i].Nodes = nodes[off[i]:off[i+1]:off[i+1]]
	}

	// Edges by source, then by target (one allocation for both).
	both := make([]Edge, 2*len(g.edges))
	edges, preds := both[:len(g.edges)], both[len(g.edges):]
	group := func(dst, src []Edge, key func(Edge) BlockID) {
		clear(counts)
		for _, e := range src {
			counts[key(e)+1]++
		}
		for i := 1; i <= n; i++ {
			counts[i] += counts[i-1]
		}
		copy(pos, counts[:n])
		for _, e := range src {
			dst[pos[key(e)]] = e
			pos[key(e)]++
		}
	}
	group(edges, g.edges, func(e Edge) BlockID { return e.From })
	for i := range g.Blocks {
		g.Blocks[i].succ0, g.Blocks[i].succ1 = counts[i], counts[i+1]
	}
	group(preds, edges, func(e Edge) BlockID { return e.To })
	for i := range g.Blocks {
		g.Blocks[i].pred0, g.Blocks[i].pred1 = counts[i], counts[i+1]
	}
	g.edges, g.preds = edges, preds
	slices.SortStableFunc(g.sites, func(a, b Site) int { return int(a.Node) - int(b.Node) })
	if len(b.splits) > 0 {
		slices.Sort(b.splits)
		g.split = slices.Compact(b.splits)
	}
	g.dominators()
}

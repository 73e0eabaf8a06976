package cfg

import "unsafe"

// Dominators by Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
// Algorithm" (2001): iterate idom over the reverse postorder until stable.
// All edges count, exception edges included.

func (g *Graph) dominators() {
	n := len(g.Blocks)
	// Two arenas: what the graph keeps (idom, rpo, pre, end) and scratch.
	keep := make([]int32, 4*n)
	scratch := make([]int32, 5*n+1)
	idom := toBlocks(keep[0:n:n])
	pre, end := keep[2*n:3*n:3*n], keep[3*n:4*n:4*n]
	num := scratch[0:n:n]
	first := scratch[n : 2*n+1 : 2*n+1]
	post := toBlocks(scratch[2*n+1 : 3*n+1 : 3*n+1])[:0]
	kids := toBlocks(scratch[3*n+1 : 4*n+1 : 4*n+1])
	fill := scratch[4*n+1 : 5*n+1 : 5*n+1]

	// Postorder by iterative DFS from the entry; pre marks blocks seen.
	for i := range pre {
		pre[i] = -1
	}
	type item struct {
		b    BlockID
		next int32
	}
	stack := make([]item, 1, 8)
	stack[0] = item{Entry, g.Blocks[Entry].succ0}
	pre[Entry] = 0
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < g.Blocks[top.b].succ1 {
			s := g.edges[top.next].To
			top.next++
			if pre[s] < 0 {
				pre[s] = 0
				stack = append(stack, item{s, g.Blocks[s].succ0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, b := range post { // postorder number; meaningful for reachable blocks
		num[b] = int32(i)
	}
	rpo := toBlocks(keep[n : n+len(post) : n+len(post)])
	for i, b := range post {
		rpo[len(post)-1-i] = b
	}
	for i := range idom {
		idom[i] = NoBlock
	}
	idom[Entry] = Entry
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			nd := NoBlock
			for _, e := range g.Preds(b) {
				p := e.From
				if idom[p] == NoBlock {
					continue
				}
				if nd == NoBlock {
					nd = p
					continue
				}
				for x, y := p, nd; ; {
					for num[x] < num[y] {
						x = idom[x]
					}
					for num[y] < num[x] {
						y = idom[y]
					}
					if x == y {
						nd = x
						break
					}
				}
			}
			if idom[b] != nd {
				idom[b] = nd
				changed = true
			}
		}
	}
	idom[Entry] = NoBlock

	// Preorder intervals of the dominator tree for O(1) Dominates.
	// Children of b: kids[first[b]:first[b+1]].
	for _, b := range rpo[1:] {
		first[idom[b]+1]++
	}
	for i := 1; i <= n; i++ {
		first[i] += first[i-1]
	}
	copy(fill, first[:n])
	for _, b := range rpo[1:] {
		kids[fill[idom[b]]] = b
		fill[idom[b]]++
	}
	for i := range pre {
		pre[i], end[i] = -1, -1
	}
	var clock int32
	type frame struct {
		b    BlockID
		next int32
	}
	dstack := make([]frame, 1, 8)
	dstack[0] = frame{Entry, first[Entry]}
	pre[Entry] = clock
	clock++
	for len(dstack) > 0 {
		top := &dstack[len(dstack)-1]
		if top.next < first[top.b+1] {
			c := kids[top.next]
			top.next++
			pre[c] = clock
			clock++
			dstack = append(dstack, frame{c, first[c]})
			continue
		}
		end[top.b] = clock
		dstack = dstack[:len(dstack)-1]
	}
	g.idom, g.rpo, g.pre, g.end = idom, rpo, pre, end
}

// toBlocks views int32s as block IDs (same representation).
func toBlocks(s []int32) []BlockID {
	if cap(s) == 0 {
		return nil
	}
	return unsafe.Slice((*BlockID)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// Idom is b's immediate dominator; NoBlock for the entry and for blocks
// unreachable from it.
func (g *Graph) Idom(b BlockID) BlockID { return g.idom[b] }

// Reachable reports whether b can be reached from the entry.
func (g *Graph) Reachable(b BlockID) bool { return g.pre[b] >= 0 }

// Dominates reports whether every path from the entry to b passes through a
// (a block dominates itself). False when either is unreachable.
func (g *Graph) Dominates(a, b BlockID) bool {
	pa, pb := g.pre[a], g.pre[b]
	return pa >= 0 && pb >= 0 && pa <= pb && pb < g.end[a]
}

// RPO lists the reachable blocks in reverse postorder (the entry first): a
// good order for forward dataflow.
func (g *Graph) RPO() []BlockID { return g.rpo }

// SiteDominates reports whether evaluation at site a happens before site b
// on every path from the entry to b.
func (g *Graph) SiteDominates(a, b Site) bool {
	if a.Block == b.Block {
		return a.Index <= b.Index && g.Reachable(a.Block)
	}
	return g.Dominates(a.Block, b.Block)
}

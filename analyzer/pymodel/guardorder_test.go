package pymodel

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
)

// chainSrc is a send entry whose check reaches a read nine calls down, a
// pair of mutually recursive helpers, and a helper both call.
func chainSrc(depth int) map[string]string {
	var b strings.Builder
	b.WriteString("class Mgr:\n    def send_kv(self, req):\n        if not self.descs:\n            return\n        self._l1(req)\n        self._p(req)\n")
	for i := 1; i < depth; i++ {
		fmt.Fprintf(&b, "\n    def _l%d(self, req):\n        self._l%d(req)\n", i, i+1)
	}
	fmt.Fprintf(&b, "\n    def _l%d(self, req):\n        use(self.descs[0])\n", depth)
	b.WriteString(`
    def _p(self, req):
        if req.more:
            self._q(req)
        self._leaf(req)

    def _q(self, req):
        self._p(req)
        self._leaf(req)

    def _leaf(self, req):
        use(self.descs[0])
`)
	return map[string]string{"c.py": b.String()}
}

// Entry facts flow down a chain of any depth: each function is taken after
// its callers (the rounds over every function this replaced stopped after
// six levels). In a cycle they start empty and grow, so the recursive pair
// gets none; the helper both call gets what holds at each call.
func TestGuardsCallersFirst(t *testing.T) {
	const depth = 9
	ix, fl := flowProject(t, chainSrc(depth))
	g := fl.Guards(ix.Reachable([]Start{{Func: mustFunc(t, ix, "c.Mgr.send_kv"), Self: NoClass}}, ReachOptions{}))
	nonEmpty := facts.NonEmptyFact("self.descs")
	for i := 1; i <= depth; i++ {
		assert.Contains(t, g.Entry(mustFunc(t, ix, fmt.Sprintf("c.Mgr._l%d", i))), nonEmpty, "_l%d", i)
	}
	last := mustFunc(t, ix, fmt.Sprintf("c.Mgr._l%d", depth))
	assert.Equal(t, []string{"L" + fmt.Sprint(6+3*depth) + " self.descs index nonempty=true notnone=true"},
		guardLines(ix, fl.UseGuards(last, g.Result(last))))
	assert.NotContains(t, g.Entry(mustFunc(t, ix, "c.Mgr._p")), nonEmpty, "called from _q, whose entry facts start empty")
	assert.NotContains(t, g.Entry(mustFunc(t, ix, "c.Mgr._q")), nonEmpty)
	assert.NotContains(t, g.Entry(mustFunc(t, ix, "c.Mgr._leaf")), nonEmpty)
}

// The graph run takes every component once, after each component that
// calls it, and a panic in one reaches the caller.
func TestReachedCallsRun(t *testing.T) {
	ix, _ := flowProject(t, chainSrc(4))
	r := ix.Reachable([]Start{{Func: mustFunc(t, ix, "c.Mgr.send_kv"), Self: NoClass}}, ReachOptions{})
	cg := reachedCallGraph(ix, r)
	order := r.Funcs()
	names := func(comp []int32) string {
		var ns []string
		for _, i := range comp {
			ns = append(ns, ix.Func(order[i]).Name)
		}
		return strings.Join(ns, "+")
	}
	var mu sync.Mutex
	var ran []string
	for range 20 { // any scheduling
		ran = ran[:0]
		cg.run(func(comp []int32) {
			mu.Lock()
			ran = append(ran, names(comp))
			mu.Unlock()
		})
		require.Len(t, ran, len(cg.comps))
		pos := map[string]int{}
		for i, n := range ran {
			pos[n] = i
		}
		for _, pair := range [][2]string{{"send_kv", "_l1"}, {"_l1", "_l2"}, {"_l3", "_l4"}, {"send_kv", "_p+_q"}, {"_p+_q", "_leaf"}} {
			require.Contains(t, pos, pair[0])
			require.Contains(t, pos, pair[1])
			assert.Less(t, pos[pair[0]], pos[pair[1]], "%s before %s in %v", pair[0], pair[1], ran)
		}
	}
	assert.PanicsWithValue(t, "boom", func() {
		cg.run(func(comp []int32) {
			if names(comp) == "_l2" {
				panic("boom")
			}
		})
	})
}

package pymodel

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// reachedCalls is the call graph among the functions of a Reach, by their
// index in Reach.Funcs, cut into strongly connected components: what
// Guards needs to take each function after all its callers.
type reachedCalls struct {
	at       map[FuncRef]int32 // index in Reach.Funcs
	selfCall []bool            // the function calls itself
	comps    [][]int32         // components, members in Reach.Funcs order
	succ     [][]int32         // components called from each component
	preds    []int32           // how many components call each component
}

// reachedCallGraph builds the graph whose edges are what entryFrom reads:
// an edge from each reached caller of a reached function to it.
func reachedCallGraph(ix *Index, r *Reach) *reachedCalls {
	order := r.Funcs()
	cg := &reachedCalls{at: make(map[FuncRef]int32, len(order)), selfCall: make([]bool, len(order))}
	for i, fn := range order {
		cg.at[fn] = int32(i)
	}
	callers := make([][]int32, len(order))
	for i, fn := range order {
		for _, site := range ix.Callers(fn) {
			call := ix.Call(site)
			if call.Func < 0 {
				continue
			}
			j, ok := cg.at[FuncRef{site.File, call.Func}]
			if !ok {
				continue
			}
			if j == int32(i) {
				cg.selfCall[i] = true
				continue
			}
			callers[i] = append(callers[i], j)
		}
	}
	cg.components(callers)
	return cg
}

// components finds the strongly connected components (tarjan) of the
// graph given by each node's callers, and the edges between them.
func (cg *reachedCalls) components(callers [][]int32) {
	compOf := make([]int32, len(callers))
	for _, comp := range tarjan(len(callers), func(v int) []int32 { return callers[v] }) {
		c := int32(len(cg.comps))
		members := make([]int32, len(comp))
		for i, v := range comp {
			members[i] = int32(v)
			compOf[v] = c
		}
		slices.Sort(members)
		cg.comps = append(cg.comps, members)
	}
	cg.succ = make([][]int32, len(cg.comps))
	cg.preds = make([]int32, len(cg.comps))
	seen := map[[2]int32]bool{}
	for callee, cs := range callers {
		for _, caller := range cs {
			from, to := compOf[caller], compOf[callee]
			if from == to || seen[[2]int32{from, to}] {
				continue
			}
			seen[[2]int32{from, to}] = true
			cg.succ[from] = append(cg.succ[from], to)
			cg.preds[to]++
		}
	}
}

// run calls do with each component once all the components that call it
// are done, on GOMAXPROCS goroutines. Each component's work depends only
// on its callers' final results, so the outcome does not depend on
// scheduling. A panic in do is raised again in the caller, after the
// other workers stop (as parallelFiles does): the queue is closed, and a
// worker that then queues a component panics in turn, recovered alike.
func (cg *reachedCalls) run(do func(comp []int32)) {
	n := len(cg.comps)
	if n == 0 {
		return
	}
	pending := make([]atomic.Int32, n)
	ready := make(chan int32, n)
	for c := range n {
		pending[c].Store(cg.preds[c])
		if cg.preds[c] == 0 {
			ready <- int32(c)
		}
	}
	var done atomic.Int32
	var failed atomic.Pointer[any]
	var closeOnce sync.Once
	finish := func() { closeOnce.Do(func() { close(ready) }) }
	work := func() {
		defer func() {
			if v := recover(); v != nil {
				failed.CompareAndSwap(nil, &v)
				finish()
			}
		}()
		for c := range ready {
			if failed.Load() != nil {
				return
			}
			do(cg.comps[c])
			for _, d := range cg.succ[c] {
				if pending[d].Add(-1) == 0 {
					ready <- d
				}
			}
			if done.Add(1) == int32(n) {
				finish()
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) - 1 {
		wg.Go(work)
	}
	work() // this goroutine is one of the workers
	wg.Wait()
	if v := failed.Load(); v != nil {
		panic(*v)
	}
}

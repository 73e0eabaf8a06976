package pymodel

import "sync"

// onceMap computes one value per key, once, however many goroutines ask:
// Flow's per-class and per-getter memos.
type onceMap[K comparable, V any] struct{ m sync.Map }

type onceEntry[V any] struct {
	once sync.Once
	v    V
}

func (o *onceMap[K, V]) get(k K, compute func() V) V {
	e, ok := o.m.Load(k)
	if !ok {
		// Load first: LoadOrStore alone allocates an entry on every call,
		// and the covers are asked for each membership fact derived.
		e, _ = o.m.LoadOrStore(k, &onceEntry[V]{})
	}
	x := e.(*onceEntry[V])
	x.once.Do(func() { x.v = compute() })
	return x.v
}

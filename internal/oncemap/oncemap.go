// Package oncemap computes one value per key, once, however many
// goroutines ask for it: the memos of analyses that run in parallel
// (the flow's per-class results, a rule's per-class state).
package oncemap

import "sync"

// Map is a memo from K to V. Its zero value is ready to use; it must not
// be copied after first use.
type Map[K comparable, V any] struct{ m sync.Map }

type entry[V any] struct {
	once sync.Once
	v    V
}

// Get returns the value of k, computing it with compute the first time. A
// goroutine asking for a key being computed waits for it; compute must not
// ask for its own key.
func (o *Map[K, V]) Get(k K, compute func() V) V {
	e, ok := o.m.Load(k)
	if !ok {
		// Load first: LoadOrStore alone allocates an entry on every call,
		// and some memos are asked for each fact derived.
		e, _ = o.m.LoadOrStore(k, &entry[V]{})
	}
	x := e.(*entry[V])
	x.once.Do(func() { x.v = compute() })
	return x.v
}

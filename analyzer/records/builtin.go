package records

import (
	_ "embed"
	"sync"
)

// builtinJSON holds the records sglint's own rules derive from: their ids,
// classes, messages and where they were recorded, and none of their prose
// (documentation, scenarios, solutions and the code snippets stay in the
// record files).
//
//go:embed builtin.json
var builtinJSON []byte

var builtin = sync.OnceValue(func() *Set {
	l := &loader{seen: map[string]bool{}, ids: map[string]Source{}}
	l.document("(built in)", builtinJSON)
	if len(l.errs) > 0 {
		panic("records: the built-in records do not load: " + l.errs.Error())
	}
	for _, r := range l.recs {
		r.Builtin = true
	}
	return NewSet(l.recs)
})

// Builtin is the set of records sglint ships.
func Builtin() *Set { return builtin() }

// WithBuiltin returns the records of s (nil: none) and, for each built-in
// record whose id s does not have, the built-in one: a loaded record
// replaces the shipped one of the same id.
func WithBuiltin(s *Set) *Set {
	var recs []*Record
	have := map[string]bool{}
	if s != nil {
		for _, r := range s.Records {
			recs = append(recs, r)
			have[r.ID] = true
		}
	}
	for _, r := range Builtin().Records {
		if !have[r.ID] {
			recs = append(recs, r)
		}
	}
	out := NewSet(recs)
	if s != nil {
		out.Files = s.Files
	}
	return out
}

package sendpath

import (
	"github.com/sglint/sglint/analyzer/pymodel"
)

// DefaultBases are the KV base classes when Config.Bases is nil: the
// abstract manager, sender and receiver that every sglang transfer
// backend (mooncake, nixl, mori, ascend, fake, ...) derives from, directly
// or through the common classes. The bootstrap server is not one: it
// hands out addresses and moves no KV.
var DefaultBases = []string{"BaseKVManager", "BaseKVSender", "BaseKVReceiver"}

// Scope is a project's KV transfer code: the KV classes, the project
// classes that derive (in any file, through any depth) from one of the
// configured bases, and the functions that belong to them (their methods
// and the functions and lambdas nested in those).
type Scope struct {
	ix *pymodel.Index
	// classes maps each KV class to the base that makes it one.
	classes map[pymodel.ClassRef]string
}

// newScope finds the KV classes of ix. A base matches by qualified name or
// any dotted tail of it ("BaseKVManager" names
// "sglang.srt.disaggregation.base.conn.BaseKVManager"), whether it is a
// project class or one outside the project (an unresolved import counts
// by the name it is written with).
func newScope(ix *pymodel.Index, bases []string) *Scope {
	s := &Scope{ix: ix, classes: map[pymodel.ClassRef]string{}}
	if len(bases) == 0 {
		return s
	}
	for fi := range ix.Files {
		sum := ix.Summary(int32(fi))
		if sum == nil {
			continue
		}
		for ci := range sum.Classes {
			c := pymodel.ClassRef{File: int32(fi), Class: int32(ci)}
			for _, b := range ix.MRO(c) {
				if namedIn(bases, b.Name) {
					s.classes[c] = b.Name
					break
				}
			}
		}
	}
	return s
}

// IsKVClass reports whether c derives from a KV base (or is one).
func (s *Scope) IsKVClass(c pymodel.ClassRef) bool {
	_, ok := s.classes[c]
	return ok
}

// Base returns the configured base that makes c a KV class, "" if none.
func (s *Scope) Base(c pymodel.ClassRef) string { return s.classes[c] }

// Owner returns the class fn belongs to: the class whose body defines it,
// or the one defining the method it is nested in. False for module-level
// functions and what they nest.
func (s *Scope) Owner(fn pymodel.FuncRef) (pymodel.ClassRef, bool) {
	sum := s.ix.Summary(fn.File)
	if sum == nil {
		return pymodel.NoClass, false
	}
	for g := fn.Func; g >= 0 && int(g) < len(sum.Functions); g = sum.Functions[g].Parent {
		if c := sum.Functions[g].Class; c >= 0 {
			return pymodel.ClassRef{File: fn.File, Class: c}, true
		}
	}
	return pymodel.NoClass, false
}

// Contains reports whether fn is KV transfer code: it belongs to a KV
// class.
func (s *Scope) Contains(fn pymodel.FuncRef) bool {
	c, ok := s.Owner(fn)
	return ok && s.IsKVClass(c)
}

// Len is the number of KV classes.
func (s *Scope) Len() int { return len(s.classes) }

package syntax

import "sync"

// Kind identifies a node type. Aliased symbols that share a name are merged
// into one Kind, so `kind == Identifier` holds for every identifier.
type Kind uint16

// Field identifies the field under which a node hangs from its parent; 0 is
// no field.
type Field uint8

// symbols returns canonical, which maps every grammar symbol to the first
// symbol with the same name and namedness, and the flags that follow from
// a symbol alone (named). They are built on first use, in one pass over
// the grammar's symbols: startup is part of every run, and a run whose
// output is replayed, or that takes everything from the cache, parses
// nothing. The kinds themselves are constants (kinds_gen.go).
var symbols = sync.OnceValues(symbolTables)

func symbolTables() ([]Kind, []uint8) {
	n := language.NodeKindCount()
	canon := make([]Kind, n)
	flags := make([]uint8, n)
	first := make(map[string]Kind, n)
	for i := uint32(0); i < n; i++ {
		key := language.NodeKindForId(uint16(i))
		if language.NodeKindIsNamed(uint16(i)) {
			key = "N:" + key
			flags[i] = flagNamed
		}
		if k, ok := first[key]; ok {
			canon[i] = k
		} else {
			first[key] = Kind(i)
			canon[i] = Kind(i)
		}
	}
	return canon, flags
}

// String is the grammar's name for k.
func (k Kind) String() string { return language.NodeKindForId(uint16(k)) }

// String is the grammar's name for f.
func (f Field) String() string {
	if f == 0 {
		return ""
	}
	return language.FieldNameForId(uint16(f))
}

package syntax

import "fmt"

// Kind identifies a node type. Aliased symbols that share a name are merged
// into one Kind, so `kind == Identifier` holds for every identifier.
type Kind uint16

// Field identifies the field under which a node hangs from its parent; 0 is
// no field.
type Field uint8

// canonical maps every grammar symbol to the first symbol with the same name
// and namedness; symbolFlags holds the flags that follow from a symbol alone
// (named). They are package variables initialised before the kind
// variables that read them (Go orders package initialisation by
// dependency), in one pass over the grammar's symbols: startup is part of
// every run, and a warm run parses nothing.
var canonical, symbolFlags = symbolTables()

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

func namedKind(name string) Kind {
	id := language.IdForNodeKind(name, true)
	if id == 0 && name != "end" {
		panic(fmt.Sprintf("sglint: grammar has no named node %q", name))
	}
	return firstKind(id)
}

func anonKind(name string) Kind {
	id := language.IdForNodeKind(name, false)
	if id == 0 {
		panic(fmt.Sprintf("sglint: grammar has no token %q", name))
	}
	return firstKind(id)
}

// firstKind maps id to the first symbol with the same name and namedness,
// the Kind that parsed nodes carry (see canonical). IdForNodeKind may return
// a later alias (it does for block, as_pattern, list_pattern and
// tuple_pattern).
func firstKind(id uint16) Kind {
	if int(id) >= len(canonical) {
		return Kind(id) // ERROR and other out-of-table symbols
	}
	return canonical[id]
}

func field(name string) Field {
	id := language.FieldIdForName(name)
	if id == 0 || id > 255 {
		panic(fmt.Sprintf("sglint: grammar has no field %q", name))
	}
	return Field(id)
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

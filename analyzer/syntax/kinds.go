package syntax

import "fmt"

// Kind identifies a node type. Aliased symbols that share a name are merged
// into one Kind, so `kind == Identifier` holds for every identifier.
type Kind uint16

// Field identifies the field under which a node hangs from its parent; 0 is
// no field.
type Field uint8

// canonical maps every grammar symbol to the first symbol with the same name
// and namedness.
var canonical []Kind

// symbolFlags holds the flags that follow from a symbol alone (named).
var symbolFlags []uint8

func init() {
	n := language.NodeKindCount()
	canonical = make([]Kind, n)
	symbolFlags = make([]uint8, n)
	first := map[string]Kind{}
	for i := uint32(0); i < n; i++ {
		key := language.NodeKindForId(uint16(i))
		if language.NodeKindIsNamed(uint16(i)) {
			key = "N:" + key
			symbolFlags[i] = flagNamed
		}
		if k, ok := first[key]; ok {
			canonical[i] = k
		} else {
			first[key] = Kind(i)
			canonical[i] = Kind(i)
		}
	}
}

func namedKind(name string) Kind {
	id := language.IdForNodeKind(name, true)
	if id == 0 && name != "end" {
		panic(fmt.Sprintf("sglint: grammar has no named node %q", name))
	}
	return firstKind(id, true)
}

func anonKind(name string) Kind {
	id := language.IdForNodeKind(name, false)
	if id == 0 {
		panic(fmt.Sprintf("sglint: grammar has no token %q", name))
	}
	return firstKind(id, false)
}

// firstKind maps id to the first symbol with the same name and namedness,
// the Kind that parsed nodes carry (see canonical). IdForNodeKind may return
// a later alias (it does for block, as_pattern, list_pattern and
// tuple_pattern), and the kind variables are initialised before init builds
// canonical, so this cannot simply read it.
func firstKind(id uint16, named bool) Kind {
	if uint32(id) >= language.NodeKindCount() {
		return Kind(id) // ERROR and other out-of-table symbols
	}
	name := language.NodeKindForId(id)
	for i := uint16(0); i < id; i++ {
		if language.NodeKindIsNamed(i) == named && language.NodeKindForId(i) == name {
			return Kind(i)
		}
	}
	return Kind(id)
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

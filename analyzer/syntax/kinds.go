package syntax

import "fmt"

// Kind identifies a node type. Aliased symbols that share a name are merged
// into one Kind, so `kind == Identifier` holds for every identifier.
type Kind uint16

// Field identifies the field under which a node hangs from its parent; 0 is
// no field.
type Field uint8

// canonical maps every grammar symbol to the first symbol with the same name
// and namedness. It is a variable initializer, not an init func, so that the
// Kind variables below (which go through it) see it built: Go initializes
// package variables in dependency order, before any init func.
var canonical = buildCanonical()

func buildCanonical() []Kind {
	n := language.NodeKindCount()
	out := make([]Kind, n)
	first := map[string]Kind{}
	for i := uint32(0); i < n; i++ {
		key := language.NodeKindForId(uint16(i))
		if language.NodeKindIsNamed(uint16(i)) {
			key = "N:" + key
		}
		if k, ok := first[key]; ok {
			out[i] = k
		} else {
			first[key] = Kind(i)
			out[i] = Kind(i)
		}
	}
	return out
}

func namedKind(name string) Kind {
	id := language.IdForNodeKind(name, true)
	if id == 0 && name != "end" {
		panic(fmt.Sprintf("sglint: grammar has no named node %q", name))
	}
	// The grammar may return any of several aliased symbols of that name;
	// parsed trees carry the canonical one.
	if int(id) < len(canonical) {
		return canonical[id]
	}
	return Kind(id)
}

func anonKind(name string) Kind {
	id := language.IdForNodeKind(name, false)
	if id == 0 {
		panic(fmt.Sprintf("sglint: grammar has no token %q", name))
	}
	if int(id) < len(canonical) {
		return canonical[id]
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

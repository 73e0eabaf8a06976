package syntax

import "fmt"

// The grammar lookups TestKindsGen writes kinds_gen.go with.

func namedKind(name string) Kind {
	id := language.IdForNodeKind(name, true)
	if id == 0 {
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
	canonical, _ := symbolTables() // the grammar's, not the tables kinds_gen.go holds
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

// symbolTables reads symbols' tables from the grammar (TestKindsGen).
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

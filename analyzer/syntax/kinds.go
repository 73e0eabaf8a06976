package syntax

// Kind identifies a node type. Aliased symbols that share a name are merged
// into one Kind, so `kind == Identifier` holds for every identifier.
type Kind uint16

// Field identifies the field under which a node hangs from its parent; 0 is
// no field.
type Field uint8

// symbols returns canonical, which maps every grammar symbol to the first
// symbol with the same name and namedness, and the flags that follow from
// a symbol alone (named). Both are written from the grammar into
// kinds_gen.go, like the kinds: building them took some 300 calls into the
// grammar in every run that parses or unpacks a tree (0.2-0.3 ms of an
// edit run).
func symbols() ([]Kind, []uint8) { return canonicalSymbols[:], symbolFlagsTable[:] }

// String is the grammar's name for k.
func (k Kind) String() string { return language.NodeKindForId(uint16(k)) }

// String is the grammar's name for f.
func (f Field) String() string {
	if f == 0 {
		return ""
	}
	return language.FieldNameForId(uint16(f))
}

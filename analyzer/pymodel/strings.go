package pymodel

import "fmt"

// String methods: readable names for tests, debugging and messages.

var valueKindNames = [...]string{"other", "None", "maybe-None", "empty-list", "empty-dict", "empty-set",
	"empty-tuple", "literal", "call", "lambda", "name"}

func (k ValueKind) String() string { return enumName(valueKindNames[:], int(k)) }

var useKindNames = [...]string{"read", "assign", "mutate", "delete"}

func (k UseKind) String() string { return enumName(useKindNames[:], int(k)) }

var useOpNames = [...]string{"", "plain", "index", "slice", "iter", "len", "arg", "unpack", "method",
	"append", "extend", "insert", "add", "update", "setdefault", "setitem", "delitem", "pop", "popitem",
	"clear", "remove", "discard", "augassign"}

func (o UseOp) String() string { return enumName(useOpNames[:], int(o)) }

var callKindNames = [...]string{"unresolved", "function", "method", "super", "static", "typed", "ctor", "external"}

func (k CallKind) String() string { return enumName(callKindNames[:], int(k)) }

var funcKindNames = [...]string{"function", "method", "staticmethod", "classmethod", "property", "lambda"}

func (k FuncKind) String() string { return enumName(funcKindNames[:], int(k)) }

var symKindNames = [...]string{"none", "module", "class", "func", "var", "external"}

func (k SymKind) String() string { return enumName(symKindNames[:], int(k)) }

func enumName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%d", i)
}

// IsWrite reports the kinds that change the path's object or binding.
func (k UseKind) IsWrite() bool { return k != Read }

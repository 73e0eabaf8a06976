package pymodel

import "github.com/sglint/sglint/analyzer/syntax"

// Summary is what sglint keeps of one file after parsing: plain data, no
// pointers into the syntax tree, so it can be cached (encoding/gob or JSON)
// and the tree dropped. It depends only on the file's content: module names,
// import targets and everything else that needs other files are resolved by
// the Index.
//
// Cross-references are indexes into the Summary's own slices (int32, -1 for
// none). Pos.Node is a NodeID of the tree parsed from the same content; it is
// valid only with that tree (NodeIDs are deterministic per content).
type Summary struct {
	Classes   []Class
	Functions []Function
	Calls     []Call
	Args      []Arg // the arguments of all calls; Call.Args is a range into it
	Imports   []Import
	Globals   []Global
	Uses      []AttrUse
	Locals    []LocalType
	Tries     []Try
	Raises    []Raise
	Returns   []Return
	// Partial is set when the tree has syntax errors: what could be read
	// is summarised, the rest is missing.
	Partial bool
}

// Pos locates a node without its tree.
type Pos struct {
	Node       syntax.NodeID
	Start, End int32 // byte offsets
	Line, Col  int32 // 1-based; column in Unicode code points
}

// Position is the start as a syntax.Position (what diagnostics use).
func (p Pos) Position() syntax.Position {
	return syntax.Position{Line: int(p.Line), Column: int(p.Col)}
}

// FuncKind says how a function is defined.
type FuncKind uint8

const (
	PlainFunc    FuncKind = iota // module-level or nested def
	Method                       // def in a class body, called on instances
	StaticMethod                 // @staticmethod
	ClassMethod                  // @classmethod
	Property                     // @property, @cached_property, @x.setter
	Lambda
)

// Function is a def or a lambda. Functions are numbered in source order;
// nested ones come after their parent.
type Function struct {
	Name     string // "<lambda>" for lambdas
	QualName string // within the module, like __qualname__ without <locals>: "C.m", "f.g"
	Kind     FuncKind
	Class    int32 // class whose body defines it (methods), else -1
	Parent   int32 // enclosing function, else -1
	// SelfClass is the class whose instance `self` denotes here: the class of
	// a method, and of the method enclosing a nested function or lambda that
	// uses its `self`. -1 when there is none.
	SelfClass  int32
	Async      bool
	Abstract   bool     // @abstractmethod / @abc.abstractmethod
	Decorators []string // decorator expressions as written, without '@'
	Params     []Param
	Returns    string // return annotation as written, "" if none
	// ReturnsOptional: the return annotation admits None.
	ReturnsOptional bool
	Generator       bool // contains yield (its calls return a generator, never None)
	// FallsOff: the end of the body may be reached, so the function may
	// return None implicitly. Structural: the last statement is checked for
	// return/raise/if-else and try whose branches all exit, `while True`
	// without break.
	FallsOff bool
	// Stub: the body is only a docstring, `pass`, `...` or
	// `raise NotImplementedError` (abstract or placeholder methods).
	Stub   bool
	At     Pos           // the whole definition (decorators included)
	NameAt Pos           // the name (the `lambda` keyword for lambdas)
	Def    syntax.NodeID // the function_definition or lambda node (a cfg root)
}

// ParamKind distinguishes *args and **kwargs.
type ParamKind uint8

const (
	Positional ParamKind = iota // positional or keyword (or positional-only)
	KeywordOnly
	VarArgs // *args
	VarKw   // **kwargs
)

// Param is one parameter of a function.
type Param struct {
	Name       string
	Kind       ParamKind
	Index      int16  // position among positional parameters (self is 0), -1 for the others
	Annotation string // as written, "" if none
	Default    string // default expression as written, "" if none
	// DefaultKind classifies the default; meaningful when HasDefault.
	DefaultKind ValueKind
	HasDefault  bool
	// Optional: the annotation admits None or the default is None.
	Optional bool
	At       Pos
}

// Class is a class definition.
type Class struct {
	Name       string
	QualName   string // within the module: "Outer.Inner", "f.Local"
	Func       int32  // enclosing function, -1 for classes at module or class level
	Outer      int32  // enclosing class, -1 if none
	Decorators []string
	Dataclass  bool     // @dataclass / @dataclasses.dataclass(...)
	Bases      []string // positional superclass expressions as written (dotted names)
	Metaclass  string   // metaclass= expression, "" if none
	Fields     []Field  // names bound in the class body by assignment
	Methods    []int32  // functions defined directly in the body
	At         Pos
	NameAt     Pos
}

// Field is a name bound by assignment in a class body: a class attribute,
// or, in a dataclass, a field.
type Field struct {
	Name       string
	Annotation string // "" when unannotated
	Optional   bool   // annotation admits None, or the value is None
	ClassVar   bool   // annotated ClassVar[...]
	HasValue   bool
	Value      ValueKind
	ValueText  string // the value as written, "" if none
	At         Pos
}

// ValueKind classifies an assigned or default value.
type ValueKind uint8

const (
	ValueOther      ValueKind = iota // any other expression
	ValueNone                        // None
	ValueMaybeNone                   // a conditional expression with a None arm
	ValueEmptyList                   // [], list(), deque(), field(default_factory=list)
	ValueEmptyDict                   // {}, dict(), defaultdict(...), OrderedDict()
	ValueEmptySet                    // set(), frozenset()
	ValueEmptyTuple                  // (), tuple()
	ValueLiteral                     // a number, string, bool or non-empty collection display
	ValueCall                        // a call (other than the empty constructors above)
	ValueLambda                      // a lambda
	ValueName                        // a name or attribute chain (an alias of another value)
)

// IsEmptyCollection reports the empty-collection kinds.
func (k ValueKind) IsEmptyCollection() bool { return k >= ValueEmptyList && k <= ValueEmptyTuple }

// Import is one name bound by an import statement.
type Import struct {
	Func   int32  // function whose body holds the import, -1 at module level
	Module string // dotted module as written, without the leading dots
	Level  int8   // number of leading dots of a relative import
	// Name is the imported name of `from M import Name`, "*" for a wildcard
	// import, "" for `import M`.
	Name string
	// Alias is the local name bound: the `as` name, the imported name, or for
	// `import a.b` (no alias) the top package "a".
	Alias string
	At    Pos
}

// Global is a name bound by assignment at module level.
type Global struct {
	Name       string
	Annotation string
	Value      ValueKind
	// Ref is the dotted name of a ValueName value (an alias such as
	// `Foo = pkg.Bar`) or the callee of a ValueCall value.
	Ref string
	At  Pos
}

// UseKind is what a use does to an access path.
type UseKind uint8

const (
	Read   UseKind = iota
	Assign         // path = v (also annotated and tuple targets)
	Mutate         // in-place change of the object the path holds
	Delete         // del path
)

// UseOp refines a use.
type UseOp uint8

const (
	OpNone UseOp = iota
	// Reads.
	ReadPlain  // any other read (tests, attribute of it, returned, ...)
	ReadIndex  // path[k]
	ReadSlice  // path[a:b]
	ReadIter   // for x in path, comprehensions, *path, enumerate/zip/sorted/... (path)
	ReadLen    // len(path)
	ReadArg    // passed as an argument to another call
	ReadUnpack // a, b = path
	ReadMethod // path.m(...) for a non-mutating m (Method holds m)
	// Mutations.
	MutAppend
	MutExtend
	MutInsert
	MutAdd
	MutUpdate
	MutSetdefault
	MutSetItem // path[k] = v (also path[k] += v)
	MutDelItem // del path[k]
	MutPop
	MutPopitem
	MutClear
	MutRemove
	MutDiscard
	MutAugAssign // path += v
)

// AttrUse is one use of an access path rooted at a function's `self` or at
// one of its parameters: `self.kv_mem_descs.append(d)`, `info.kind = k`,
// `descs[0]` (a bare parameter). Uses of self are all recorded; uses of
// other parameters are recorded except plain reads and arguments of the
// bare parameter (those are the calls' business).
type AttrUse struct {
	Func int32
	// Self: the root is the `self` of Function.SelfClass (Param is 0 in the
	// method itself, -1 in a nested function or lambda using it).
	Self  bool
	Param int16  // parameter index of the root in Func, -1 for a closure's self
	Path  string // dotted attributes after the root: "kv_args.kv_data_ptrs"; "" for the root itself
	Kind  UseKind
	Op    UseOp
	// Method is the method name of ReadMethod and mutating-method uses.
	Method string
	// For Assign: the kind of value, its annotation (`self.x: T = v`) and
	// Ref, the callee of a ValueCall or the dotted name of a ValueName.
	Value      ValueKind
	Annotation string
	Optional   bool // annotation admits None
	Ref        string
	At         Pos // the access path expression
}

// LocalType records what a local name is bound to, for best-effort typing
// of call receivers: an annotated assignment or a call (`m = Manager()`).
// A name with several disagreeing bindings in one function has no type.
type LocalType struct {
	Func int32
	Name string
	// Type is an annotation or a callee as written; "" marks a binding of
	// unknown type that makes the name untyped.
	Type string
	Ctor bool // Type is a callee, not an annotation
}

// RefKind classifies a call's callee expression.
type RefKind uint8

const (
	RefOther RefKind = iota // anything else: f()(), x[0](), ...
	RefName                 // f(...)
	RefAttr                 // recv.name(...) with recv a dotted name
	RefSuper                // super().name(...) or super(C, self).name(...)
)

// Call is one call expression.
type Call struct {
	Func int32 // enclosing function, -1 at module level or in a class body
	Kind RefKind
	// Recv is the dotted receiver of RefAttr ("self", "self.kv_mgr", "os.path");
	// for RefSuper the first argument of super(C, self), if any.
	Recv string
	Name string // the called name (last segment); "" for RefOther without one
	// Args is the range [Args[0], Args[1]) of Summary.Args.
	Args [2]int32
	// Try is the innermost try statement whose body holds the call, -1 if none.
	Try   int32
	Await bool
	At    Pos
}

// Callee is the callee as written: "f", "self.m", "a.b.c".
func (c *Call) Callee() string {
	switch c.Kind {
	case RefAttr:
		return c.Recv + "." + c.Name
	case RefSuper:
		return "super()." + c.Name
	}
	return c.Name
}

// Arg is one argument of a call.
type Arg struct {
	Keyword string // keyword name, "" when positional
	Index   int16  // position among positional arguments, -1 for keywords
	Star    uint8  // 1 for *x, 2 for **x
	Value   ValueKind
	// Path is the argument as a dotted name ("self.kv_args.ptrs", "info"),
	// "" when it is another expression.
	Path string
	// Lambda is the function index of a lambda argument, else -1.
	Lambda int32
	At     Pos
}

// Try is a try statement. A node lies in its body when
// BodyStart <= node < BodyEnd (preorder NodeIDs).
type Try struct {
	Func               int32
	Outer              int32 // enclosing try in the same function whose body holds this one, -1 if none
	BodyStart, BodyEnd syntax.NodeID
	Handlers           []Handler
	Finally            bool
	At                 Pos
}

// Handler is an except clause.
type Handler struct {
	// Types are the caught exception expressions as written; nil for a bare
	// `except:`.
	Types []string
	Name  string // the `as` name, "" if none
	// Reraises: the handler body holds a bare `raise` or re-raises its
	// `as` name, so what it catches still escapes.
	Reraises bool
	Star     bool // except*
	At       Pos
}

// Raise is a raise statement.
type Raise struct {
	Func int32
	// Type is the raised class or expression as written (the callee of
	// `raise E(...)`, or `E`, or a variable); "" for a bare raise.
	Type string
	// Message is the first argument when it is a string literal (its
	// content, f-strings as written), else "".
	Message string
	Try     int32 // innermost try whose body holds it, -1 if none
	// HandlerTry and Handler locate the innermost except clause holding the
	// raise (a bare raise re-raises what it caught): Tries[HandlerTry].
	// Handlers[Handler]. HandlerTry is -1 outside handlers.
	HandlerTry int32
	Handler    int16
	At         Pos
}

// Return is a return statement.
type Return struct {
	Func  int32
	Value ValueKind // ValueNone for a bare return
	// Call is the index of the call whose result is returned (`return f()`,
	// `return await f()`), else -1.
	Call int32
	At   Pos
}

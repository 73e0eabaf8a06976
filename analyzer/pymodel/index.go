package pymodel

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/analyzer/syntax"
)

// SourceFile is one summarised file handed to NewIndex.
type SourceFile struct {
	Path    string // display path
	Module  string // dotted module name (see ModuleName)
	Package bool   // an __init__.py: relative imports start from the module itself
	Summary *Summary
}

// ClassRef names a class of the project: Index.Files[File].Summary.Classes[Class].
type ClassRef struct{ File, Class int32 }

// FuncRef names a function of the project: Index.Files[File].Summary.Functions[Func].
type FuncRef struct{ File, Func int32 }

// UseRef names an AttrUse: Index.Files[File].Summary.Uses[Use].
type UseRef struct{ File, Use int32 }

// CallSite names a call: Index.Files[File].Summary.Calls[Call].
type CallSite struct{ File, Call int32 }

// RaiseRef names a raise statement: Index.Files[File].Summary.Raises[Raise].
type RaiseRef struct{ File, Raise int32 }

var (
	NoClass = ClassRef{-1, -1}
	NoFunc  = FuncRef{-1, -1}
)

func (r ClassRef) Valid() bool { return r.File >= 0 }
func (r FuncRef) Valid() bool  { return r.File >= 0 }

// Index is the project model: every file's Summary, linked. It is built
// once per run by NewIndex and read-only afterwards, so any number of
// goroutines may query it. It holds summaries only, never trees.
type Index struct {
	Files []SourceFile

	modules  pyname.Modules  // files by module name, or by a unique dotted tail
	packages map[string]bool // every module name and every prefix of one
	byPath   map[string]int32
	files    []fileData

	classes    map[string]ClassRef // qualified name -> class
	funcs      map[string]FuncRef
	methods    map[string][]FuncRef // method name -> instance methods of that name
	mro        [][][]Base           // [file][class]
	subclasses map[ClassRef][]ClassRef

	callees [][]Callee // [file] flat, ranges in fileData.calleeAt
	// funcBase numbers the project's functions: file fi's function i is
	// funcBase[fi]+i. The callers of function g are
	// callerSites[callerAt[g]:callerAt[g+1]], in file and call order.
	funcBase    []int32
	callerAt    []int32
	callerSites []CallSite
	entries     []Entry
	funcSums    [][]FuncSummary // [file][func], filled on demand (see ensureSummary)
	sumDone     []sync.Once     // per component: its summaries are computed
	excNames    sync.Map        // excKey -> string: handler types resolved for summaries
	// Strongly connected components of the static call graph (non-virtual
	// edges), callees before callers, each function's component, and
	// whether a component is a cycle.
	sccs      [][]FuncRef
	sccOf     [][]int32
	sccCyclic []bool

	byAttr attrNames // see AttrDeclarers
}

// fileData is what the index derives per file.
type fileData struct {
	classNames []string         // qualified names, computed once
	funcNames  []string         // "" for lambdas
	scope      map[string]def   // module-level bindings
	inner      map[innerKey]def // bindings local to a function
	locals     map[innerKey]localType
	classUses  []map[string][]int32 // [class] self path -> uses in the class's own methods
	funcCalls  buckets              // [func] calls made in it (not in nested functions)
	funcUses   buckets
	funcRaises buckets
	funcRets   buckets
	calleeAt   []int32 // [call] start in Index.callees[file]; len calls+1
}

type defKind uint8

const (
	defClass defKind = iota + 1
	defFunc
	defImport
	defGlobal
)

type def struct {
	kind defKind
	idx  int32
}

// localType is what a typed local is bound to: Type "" when its bindings
// disagree; Ctor when Type is a callee rather than an annotation.
type localType struct {
	Type string
	Ctor bool
}

type innerKey struct {
	fn   int32
	name string
}

// NewIndex links the summaries of a project. files must not change
// afterwards. Files with the same module name: the first one wins.
func NewIndex(files []SourceFile) *Index { return NewIndexFrom(files, nil) }

// NewIndexFrom is NewIndex for a project that differs from prev's in a
// few files, as a long-lived session relinks after an edit: what the index
// derives from one file alone (its bindings, qualified names and
// per-function buckets, a fifth of the work) is taken from prev for each
// file whose summary (the same pointer), path, module and package flag are
// unchanged; the links across files are made again. prev may be nil; it is
// not modified and stays valid.
func NewIndexFrom(files []SourceFile, prev *Index) *Index {
	// Sized up front: growing these maps entry by entry was a fifth of the
	// serial part of the build on the stdlib.
	var nClasses, nFuncs int
	for i := range files {
		if s := files[i].Summary; s != nil {
			nClasses += len(s.Classes)
			nFuncs += len(s.Functions)
		}
	}
	ix := &Index{
		Files:      files,
		modules:    pyname.NewModules(len(files)),
		packages:   map[string]bool{},
		byPath:     make(map[string]int32, len(files)),
		files:      make([]fileData, len(files)),
		classes:    make(map[string]ClassRef, nClasses),
		funcs:      make(map[string]FuncRef, nFuncs),
		methods:    make(map[string][]FuncRef, nFuncs/4),
		subclasses: map[ClassRef][]ClassRef{},
	}
	for i := range files {
		f := &files[i]
		if f.Summary == nil {
			f.Summary = &Summary{}
		}
		ix.byPath[f.Path] = int32(i)
		if f.Module != "" {
			ix.modules.Add(f.Module, int32(i))
		}
		for m := f.Module; m != ""; m = pyname.Parent(m) {
			ix.packages[m] = true
		}
	}
	reuse := prev.sameFiles(files)
	parallelFiles(len(files), func(fi int) {
		if j := reuse[fi]; j >= 0 {
			// Read-only once built, so shared; calleeAt is made anew by
			// resolveCalls.
			ix.files[fi] = prev.files[j]
			ix.files[fi].calleeAt = nil
			return
		}
		ix.indexFile(int32(fi))
	})
	for fi := range ix.files {
		for i, n := range ix.files[fi].classNames {
			ix.classes[n] = ClassRef{int32(fi), int32(i)}
		}
		fs := ix.Files[fi].Summary.Functions
		for i, n := range ix.files[fi].funcNames {
			if n != "" {
				ix.funcs[n] = FuncRef{int32(fi), int32(i)}
			}
			if fs[i].Kind == Method && fs[i].Class >= 0 {
				ix.methods[fs[i].Name] = append(ix.methods[fs[i].Name], FuncRef{int32(fi), int32(i)})
			}
		}
	}
	ix.linkClasses()
	ix.resolveCalls()
	ix.summarizeFuncs()
	return ix
}

// sameFiles maps each of files to the index of the same file in ix (see
// NewIndexFrom), -1 where there is none; ix may be nil.
func (ix *Index) sameFiles(files []SourceFile) []int32 {
	out := make([]int32, len(files))
	for fi := range files {
		out[fi] = -1
		if ix == nil {
			continue
		}
		f := &files[fi]
		if j, ok := ix.byPath[f.Path]; ok {
			if p := &ix.Files[j]; p.Summary == f.Summary && p.Module == f.Module && p.Package == f.Package {
				out[fi] = j
			}
		}
	}
	return out
}

func (ix *Index) indexFile(fi int32) {
	s := ix.Files[fi].Summary
	mod := ix.Files[fi].Module
	d := &ix.files[fi]
	d.scope = make(map[string]def, len(s.Globals)+len(s.Imports)+len(s.Classes)+len(s.Functions)/2)
	d.inner = map[innerKey]def{}
	bind := func(fn int32, name string, x def) {
		if fn < 0 {
			// Definitions win over imports, imports over assignments (a
			// `try: import x / except: x = None` fallback keeps the import).
			if old, ok := d.scope[name]; ok && old.kind < x.kind {
				return
			}
			d.scope[name] = x
			return
		}
		k := innerKey{fn, name}
		if old, ok := d.inner[k]; ok && old.kind < x.kind {
			return
		}
		d.inner[k] = x
	}
	for i := range s.Globals {
		bind(-1, s.Globals[i].Name, def{defGlobal, int32(i)})
	}
	for i := range s.Imports {
		if s.Imports[i].Name != "*" {
			bind(s.Imports[i].Func, s.Imports[i].Alias, def{defImport, int32(i)})
		}
	}
	d.classNames = make([]string, len(s.Classes))
	d.funcNames = make([]string, len(s.Functions))
	for i := range s.Classes {
		c := &s.Classes[i]
		d.classNames[i] = joinName(mod, c.QualName)
		if c.Outer < 0 {
			bind(c.Func, c.Name, def{defClass, int32(i)})
		}
	}
	for i := range s.Functions {
		f := &s.Functions[i]
		if f.Kind == Lambda {
			continue
		}
		d.funcNames[i] = joinName(mod, f.QualName)
		if f.Class < 0 {
			bind(f.Parent, f.Name, def{defFunc, int32(i)})
		}
	}
	nf := len(s.Functions)
	d.funcCalls = bucketBy(nf, len(s.Calls), func(i int) int32 { return s.Calls[i].Func })
	d.funcUses = bucketBy(nf, len(s.Uses), func(i int) int32 { return s.Uses[i].Func })
	d.funcRaises = bucketBy(nf, len(s.Raises), func(i int) int32 { return s.Raises[i].Func })
	d.funcRets = bucketBy(nf, len(s.Returns), func(i int) int32 { return s.Returns[i].Func })
	d.classUses = make([]map[string][]int32, len(s.Classes))
	for i := range s.Uses {
		u := &s.Uses[i]
		if !u.Self || u.Func < 0 || int(u.Func) >= nf {
			continue
		}
		c := s.Functions[u.Func].SelfClass
		if c < 0 || int(c) >= len(s.Classes) {
			continue
		}
		if d.classUses[c] == nil {
			d.classUses[c] = map[string][]int32{}
		}
		d.classUses[c][u.Path] = append(d.classUses[c][u.Path], int32(i))
	}
	d.locals = make(map[innerKey]localType, len(s.Locals))
	for i := range s.Locals {
		l := &s.Locals[i]
		k := innerKey{l.Func, l.Name}
		if old, ok := d.locals[k]; ok {
			if old.Type != l.Type || old.Ctor != l.Ctor {
				d.locals[k] = localType{}
			}
			continue
		}
		d.locals[k] = localType{l.Type, l.Ctor}
	}
}

func joinName(mod, qual string) string {
	if mod == "" {
		return qual
	}
	return mod + "." + qual
}

// Accessors.

func (ix *Index) validClass(r ClassRef) bool {
	return r.File >= 0 && int(r.File) < len(ix.Files) && r.Class >= 0 && int(r.Class) < len(ix.Files[r.File].Summary.Classes)
}

func (ix *Index) validFunc(r FuncRef) bool {
	return r.File >= 0 && int(r.File) < len(ix.Files) && r.Func >= 0 && int(r.Func) < len(ix.Files[r.File].Summary.Functions)
}

// FileOf returns the index of the file with display path p.
func (ix *Index) FileOf(p string) (int32, bool) {
	i, ok := ix.byPath[p]
	return i, ok
}

// ModuleFile returns the file of a module.
func (ix *Index) ModuleFile(module string) (int32, bool) {
	return ix.modules.Exact(module)
}

func (ix *Index) Class(r ClassRef) *Class     { return &ix.Files[r.File].Summary.Classes[r.Class] }
func (ix *Index) Func(r FuncRef) *Function    { return &ix.Files[r.File].Summary.Functions[r.Func] }
func (ix *Index) Call(c CallSite) *Call       { return &ix.Files[c.File].Summary.Calls[c.Call] }
func (ix *Index) Use(u UseRef) *AttrUse       { return &ix.Files[u.File].Summary.Uses[u.Use] }
func (ix *Index) Raise(r RaiseRef) *Raise     { return &ix.Files[r.File].Summary.Raises[r.Raise] }
func (ix *Index) Summary(file int32) *Summary { return ix.Files[file].Summary }

// Args returns the arguments of a call.
func (ix *Index) Args(c CallSite) []Arg {
	s := ix.Files[c.File].Summary
	call := &s.Calls[c.Call]
	return s.Args[call.Args[0]:call.Args[1]]
}

// ClassByName finds a class by qualified name ("pkg.mod.Outer.Inner").
func (ix *Index) ClassByName(qual string) (ClassRef, bool) {
	r, ok := ix.classes[qual]
	return r, ok
}

// FuncByName finds a function by qualified name ("pkg.mod.Class.method").
func (ix *Index) FuncByName(qual string) (FuncRef, bool) {
	r, ok := ix.funcs[qual]
	return r, ok
}

// ClassName is the qualified name of a class.
func (ix *Index) ClassName(r ClassRef) string {
	return ix.files[r.File].classNames[r.Class]
}

// MethodsNamed lists the instance methods called name defined in any
// project class, in file and source order: the candidates of a call
// `obj.name()` whose receiver's class is unknown.
func (ix *Index) MethodsNamed(name string) []FuncRef { return ix.methods[name] }

// FuncName is the qualified name of a function.
func (ix *Index) FuncName(r FuncRef) string {
	if n := ix.files[r.File].funcNames[r.Func]; n != "" {
		return n
	}
	return joinName(ix.Files[r.File].Module, ix.Func(r).QualName) // a lambda
}

// FuncsOf returns the functions of a file.
func (ix *Index) FuncsOf(file int32) []FuncRef {
	n := len(ix.Files[file].Summary.Functions)
	out := make([]FuncRef, n)
	for i := range out {
		out[i] = FuncRef{file, int32(i)}
	}
	return out
}

// CallAt finds the call of file whose node is n (a Call node of its
// tree). A summary lists its calls in source order, which is node order.
func (ix *Index) CallAt(file int32, n syntax.NodeID) (CallSite, bool) {
	calls := ix.Summary(file).Calls
	i := sort.Search(len(calls), func(i int) bool { return calls[i].At.Node >= n })
	if i < len(calls) && calls[i].At.Node == n {
		return CallSite{File: file, Call: int32(i)}, true
	}
	return CallSite{}, false
}

// CallsIn returns the calls made directly in fn (not in nested functions).
func (ix *Index) CallsIn(fn FuncRef) []CallSite {
	idx := ix.files[fn.File].funcCalls.of(fn.Func)
	out := make([]CallSite, len(idx))
	for i, c := range idx {
		out[i] = CallSite{fn.File, c}
	}
	return out
}

// FuncAt returns the function whose definition is the node at offset
// start in file (Function.At.Start or NameAt.Start).
func (ix *Index) FuncAt(file int32, start int32) (FuncRef, bool) {
	fs := ix.Files[file].Summary.Functions
	for i := range fs {
		if fs[i].At.Start == start || fs[i].NameAt.Start == start {
			return FuncRef{file, int32(i)}, true
		}
	}
	return NoFunc, false
}

// Symbols.

// sortedKeys returns a map's keys in order (deterministic output).
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// buckets groups item indexes by owner (a function) in one allocation:
// the items of owner k are items[start[k]:start[k+1]], in item order.
type buckets struct {
	start []int32
	items []int32
}

// bucketBy groups the items [0, n) by key(i) in [0, owners); other keys
// (-1: module level) are left out.
func bucketBy(owners, n int, key func(i int) int32) buckets {
	b := buckets{start: make([]int32, owners+2)}
	for i := 0; i < n; i++ {
		if k := key(i); k >= 0 && int(k) < owners {
			b.start[k+2]++
		}
	}
	for k := 2; k < len(b.start); k++ {
		b.start[k] += b.start[k-1]
	}
	b.items = make([]int32, b.start[owners+1])
	for i := 0; i < n; i++ {
		if k := key(i); k >= 0 && int(k) < owners {
			b.items[b.start[k+1]] = int32(i)
			b.start[k+1]++
		}
	}
	return b
}

func (b *buckets) of(k int32) []int32 {
	if k < 0 || int(k)+1 >= len(b.start) {
		return nil
	}
	return b.items[b.start[k]:b.start[k+1]]
}

// ForEach runs job(i) for each i in [0, n) on as many goroutines as the
// runtime has CPUs, and returns when all are done; a panic in a job is
// raised again in the caller (where a driver recovers it). For a rule's
// shared computation, which the rule's other workers wait on.
func ForEach(n int, job func(i int)) { parallelFiles(n, job) }

// parallelFiles runs job for every index below n on GOMAXPROCS goroutines.
// Jobs write only to their own slots, so the result does not depend on
// scheduling. A job's panic is raised again in the caller, after the
// others stop, where the engine's recover turns it into a problem (a panic
// on another goroutine would end the process).
func parallelFiles(n int, job func(fi int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[any]
	work := func() {
		defer func() {
			if v := recover(); v != nil {
				failed.CompareAndSwap(nil, &v)
				next.Store(int64(n)) // the others stop at their next job
			}
		}()
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			job(i)
		}
	}
	// This goroutine is one of the workers (the only one for a single
	// job): starting one more goroutine than needed cost a thread wakeup
	// per call.
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if v := failed.Load(); v != nil {
		panic(*v)
	}
}

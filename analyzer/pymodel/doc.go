// Package pymodel is sglint's model of a Python project: per-file
// summaries and a project index over them.
//
// Summarize reads one parsed file, in a single pass over its nodes, into a
// Summary: plain data (no tree pointers) that can be cached by content
// hash. It lists the file's classes (decorators, bases as written, fields
// with annotations and Optional detection), functions (parameters,
// annotations, defaults, stubs, whether the end of the body is reachable),
// imports, module globals, calls with their arguments, try statements,
// raises and returns, and every use of an access path rooted at `self` or
// at a parameter (assigned, mutated, deleted, or read, and how).
//
// NewIndex links the summaries of a project: module names (ModuleName,
// FindRoot), imports including relative ones and package re-exports, a
// class index with C3 method resolution orders (bases outside the project
// are opaque and reported as such), attribute declarations along the
// bases, a call graph (self/super/module/imported/ClassName.m calls and,
// best effort, obj.m() when obj's class is known from an annotation or a
// constructor), thread entry points, context-sensitive reachability with
// shortest call chains, and function summaries computed bottom-up over the
// call graph (writes to self and to parameters, escaping exceptions,
// whether None may be returned).
//
// Flow adds guard facts (package facts, over package cfg graphs) on demand:
// a function's facts count what its callees guarantee when they return
// (post-facts, e.g. "self.descs is non-empty after self._check()") and
// what they may empty or rebind; Guards adds, over a reachability set, the
// facts every caller established before the call (entry facts), the facts
// the constructors established for the object's whole life (Invariants)
// and the aliases a `@property` getter that returns an attribute of self
// makes (PropertyAliases; both are ClassFacts). UseGuards and Checks turn them into per-use answers and
// per-function checks.
//
// Known limits (the model prefers missing a fact to inventing one):
//   - Names are resolved statically: no `getattr`, no assignment of
//     functions to attributes, no decorators that replace functions.
//   - Receiver types come from annotations and constructor calls only (an
//     attribute a base constructor assigns from its parameter takes the
//     most derived annotation subclasses pass down); an unannotated
//     parameter or a value returned by a call is untyped, except for
//     ExprClass: a classmethod that returns `cls(...)`, and an item of a
//     dict whose items are annotated or stored only from typed values
//     (ItemClass).
//   - Rebinding a parameter (`p = other`) is not tracked: later uses of p
//     still count as uses of the parameter.
//   - Summaries follow non-virtual callees; reachability may follow
//     overrides in subclasses (ReachOptions.Virtual).
//   - Whether a function can fall off its end is decided structurally
//     (last statement), not with a control-flow graph.
//   - Facts cross calls only through access-path arguments and receivers;
//     within a call cycle post-facts are iterated from none (sound, maybe
//     incomplete); entry facts count only call sites in reached functions.
package pymodel

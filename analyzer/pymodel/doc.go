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
// Known limits (the model prefers missing a fact to inventing one):
//   - Names are resolved statically: no `getattr`, no assignment of
//     functions to attributes, no decorators that replace functions.
//   - Receiver types come from annotations and constructor calls only; an
//     unannotated parameter or a value returned by a call is untyped.
//   - Rebinding a parameter (`p = other`) is not tracked: later uses of p
//     still count as uses of the parameter.
//   - Summaries follow non-virtual callees; reachability may follow
//     overrides in subclasses (ReachOptions.Virtual).
//   - Whether a function can fall off its end is decided structurally
//     (last statement), not with a control-flow graph.
package pymodel

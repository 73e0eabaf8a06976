package kvfail

import (
	"fmt"
	"strings"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/rules/sendpath"
)

// Example is where a backend fails one request with its own failure API:
// a call that passes a `...Failed` status (`update_status(room,
// KVPoll.Failed)`), with the calls recording why beside it
// (`record_failure(room, reason)`).
type Example struct {
	Func  pymodel.FuncRef
	Line  int
	Calls []string // as the message shows them, e.g. "self.record_failure(...)"
}

// Advice is the example as a sentence's object: "`self.record_failure(...)`
// and `self.update_status(..., KVPoll.Failed)` as `transfer_worker` does
// at line 812".
func (e Example) Advice(ix *pymodel.Index) string {
	quoted := make([]string, len(e.Calls))
	for i, c := range e.Calls {
		quoted[i] = "`" + c + "`"
	}
	return fmt.Sprintf("%s, as `%s` does at line %d", strings.Join(quoted, " and "), ix.Func(e.Func).Name, e.Line)
}

// FailureExample finds how the backend of fn fails a request: in fn
// itself first, then in the methods of fn's class and its project bases,
// then in the other KV classes of its file. False when none does.
func (r *Result) FailureExample(fn pymodel.FuncRef) (Example, bool) {
	return FailureExample(r.Paths, fn)
}

// FailureExample is Result.FailureExample for a rule that needs no
// failure analysis (SGL010).
func FailureExample(paths *sendpath.Paths, fn pymodel.FuncRef) (Example, bool) {
	ix := paths.Index()
	if e, ok := exampleIn(ix, fn); ok {
		return e, true
	}
	var cands []pymodel.FuncRef
	if _, c := ix.SelfOf(fn); c.Valid() {
		for _, b := range ix.MRO(c) {
			if b.Class.Valid() {
				cands = append(cands, methodsOf(ix, b.Class)...)
			}
		}
	}
	for _, g := range ix.FuncsOf(fn.File) {
		if paths.Scope().Contains(g) {
			cands = append(cands, g)
		}
	}
	for _, g := range cands {
		if e, ok := exampleIn(ix, g); ok {
			return e, true
		}
	}
	return Example{}, false
}

func methodsOf(ix *pymodel.Index, c pymodel.ClassRef) []pymodel.FuncRef {
	var out []pymodel.FuncRef
	for _, g := range ix.FuncsOf(c.File) {
		if ix.Func(g).Class == c.Class {
			out = append(out, g)
		}
	}
	return out
}

// exampleIn finds the first call of fn that passes a Failed status, and
// the calls named like record_failure before it in the same function.
func exampleIn(ix *pymodel.Index, fn pymodel.FuncRef) (Example, bool) {
	var record string
	for _, site := range ix.CallsIn(fn) {
		c := ix.Call(site)
		if c.Name == "prepare_abort" {
			// The scheduler's way: abort the request with a status.
			return Example{Func: fn, Line: int(c.At.Line), Calls: []string{c.Callee() + "(req, ...)"}}, true
		}
		if strings.Contains(c.Name, "record_failure") || c.Name == "mark_failed" {
			record = c.Callee() + "(...)"
		}
		for _, a := range ix.Args(site) {
			if a.Path == "Failed" || strings.HasSuffix(a.Path, ".Failed") {
				e := Example{Func: fn, Line: int(c.At.Line)}
				if record != "" {
					e.Calls = append(e.Calls, record)
				}
				e.Calls = append(e.Calls, fmt.Sprintf("%s(..., %s)", c.Callee(), a.Path))
				return e, true
			}
		}
	}
	return Example{}, false
}

// EndsRequest reports whether a call named name gives a request its
// terminal status: an abort (`prepare_abort`), a finish, the scheduler's
// `stream_output` of its end, or a failure handler (`record_failure`,
// `handle_bootstrap_failure`, `mark_failed`), not a log or a metric of a
// failure (`increment_transfer_failed_reqs`). The completion rules (SGL007,
// SGL008) take such a call as concluding the request.
func EndsRequest(name string) bool {
	n := strings.ToLower(name)
	switch {
	case n == "stream_output", strings.Contains(n, "abort"), strings.Contains(n, "finish"):
		return true
	case strings.Contains(n, "fail"):
		for _, w := range []string{"log", "increment", "count", "metric", "warn", "print", "debug"} {
			if strings.Contains(n, w) {
				return false
			}
		}
		return true
	}
	return false
}

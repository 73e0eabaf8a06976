package cfg

import "github.com/sglint/sglint/analyzer/syntax"

// exitCalls are the calls that end the process instead of returning:
// sys.exit, exit and quit raise SystemExit; os._exit and os.abort stop it
// at once. Matched by the callee as written (a local function named exit
// is taken for the builtin).
var exitCalls = map[string]bool{
	"sys.exit": true, "exit": true, "quit": true, "os._exit": true, "os.abort": true,
}

// ExitsProcess reports whether statement s is a call that ends the process
// (`sys.exit(1)`, `os._exit(1)`): control never continues after it, and a
// handler that ends in one does not deal with the error for one request.
// The graph gives it a Raise edge, like `raise SystemExit`.
func ExitsProcess(t *syntax.Tree, s syntax.NodeID) bool {
	if t.Kind(s) != syntax.ExpressionStatement {
		return false
	}
	e := t.Unparen(t.NamedChild(s, 0))
	if e == syntax.NoNode || t.Kind(e) != syntax.Call {
		return false
	}
	fn := t.Field(e, syntax.FFunction)
	return fn != syntax.NoNode && exitCalls[string(t.Bytes(fn))]
}

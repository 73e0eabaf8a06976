package cfg

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

// findText returns the first node whose text is exactly s (the innermost
// one, as preorder visits parents first and we keep the last match of the
// same span).
func findText(t testing.TB, tree *syntax.Tree, s string) syntax.NodeID {
	t.Helper()
	found := syntax.NoNode
	for i := 0; i < tree.Len(); i++ {
		n := syntax.NodeID(i)
		if tree.IsNamed(n) && tree.TextIs(n, s) {
			if found == syntax.NoNode || tree.Contains(found, n) {
				found = n
				continue
			}
			break
		}
	}
	require.NotEqual(t, syntax.NoNode, found, "no node %q", s)
	return found
}

func TestHandler(t *testing.T) {
	tests := []struct {
		name, src, at, exc string
		caught             bool
		always, some       bool
	}{
		{"key error caught silently", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        v = None
`, "t[k]", "KeyError", true, false, false},
		{"base class catches", `
def f(t, k):
    try:
        v = t[k]
    except LookupError:
        return None
`, "t[k]", "KeyError", true, false, false},
		{"Exception catches unknown classes", `
def f(t, k):
    try:
        v = t[k]
    except Exception as e:
        log(e)
`, "t[k]", "MyError", true, false, false},
		{"a handler that ends the process does not deal with the error", `
def f(t, k):
    try:
        v = t[k]
    except Exception:
        log("fatal")
        os._exit(1)
`, "t[k]", "KeyError", true, true, true},
		{"sys.exit on one branch only", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        if strict:
            sys.exit(1)
`, "t[k]", "KeyError", true, false, true},
		{"a method named exit is a call like any other", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        self.exit(1)
`, "t[k]", "KeyError", true, false, false},
		{"tuple of names", `
def f(t, k):
    try:
        v = t[k]
    except (ValueError, KeyError):
        pass
`, "t[k]", "KeyError", true, false, false},
		{"dotted names compare by last part", `
def f(s):
    try:
        s.get()
    except requests.ConnectionError:
        pass
`, "s.get()", "requests.ConnectionError", true, false, false},
		{"unrelated class does not catch", `
def f(t, k):
    try:
        v = t[k]
    except ValueError:
        pass
`, "t[k]", "KeyError", false, false, false},
		{"bare except catches", `
def f(t, k):
    try:
        v = t[k]
    except:
        raise
`, "t[k]", "KeyError", true, true, true},
		{"re-raise on every path", `
def f(t, k):
    try:
        v = t[k]
    except KeyError as e:
        if e.args:
            raise RuntimeError("x") from e
        else:
            raise
`, "t[k]", "KeyError", true, true, true},
		{"re-raise on some path", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        if strict:
            raise
        log()
`, "t[k]", "KeyError", true, false, true},
		{"continue fails only this item", `
def f(reqs, t):
    for r in reqs:
        try:
            v = t[r.key]
        except KeyError:
            r.fail()
            continue
`, "t[r.key]", "KeyError", true, false, false},
		{"loop that raises only after break", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        while True:
            if retry():
                break
        raise
`, "t[k]", "KeyError", true, true, true},
		{"handler code is not covered by its own try", `
def f(t, k):
    try:
        pass
    except KeyError:
        v = t[k]
`, "t[k]", "KeyError", false, false, false},
		{"finally code is not covered", `
def f(t, k):
    try:
        pass
    except KeyError:
        pass
    finally:
        v = t[k]
`, "t[k]", "KeyError", false, false, false},
		{"search stops at the function", `
def f(t, k):
    try:
        def g():
            return t[k]
    except KeyError:
        pass
`, "t[k]", "KeyError", false, false, false},
		{"first matching clause wins", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        raise
    except Exception:
        pass
`, "t[k]", "KeyError", true, true, true},
		{"finally that raises makes it always", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        try:
            cleanup()
        finally:
            raise RuntimeError()
`, "t[k]", "KeyError", true, true, true},
		{"assert in handler raises on some path", `
def f(t, k):
    try:
        v = t[k]
    except KeyError:
        assert allowed, "no"
`, "t[k]", "KeyError", true, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tree := syntaxtest.Parse(t, strings.TrimLeft(tc.src, "\n"))
			n := findText(t, tree, tc.at)
			c, ok := Handler(tree, n, tc.exc)
			require.Equal(t, tc.caught, ok)
			if !ok {
				return
			}
			assert.Equal(t, syntax.TryStatement, tree.Kind(c.Try))
			assert.Equal(t, syntax.ExceptClause, tree.Kind(c.Clause))
			assert.Equal(t, tc.always, c.RaisesAlways, "RaisesAlways")
			assert.Equal(t, tc.some, c.RaisesSome, "RaisesSome")
		})
	}
}

func TestHandlersNested(t *testing.T) {
	tree := syntaxtest.Parse(t, `
def worker(q, t):
    while True:
        try:
            for r in q.get():
                try:
                    v = t[r]
                except KeyError:
                    raise RuntimeError("lost")
        except Exception:
            log()
`)
	n := findText(t, tree, "t[r]")
	cs := Handlers(tree, n, "KeyError")
	require.Len(t, cs, 2)
	assert.True(t, cs[0].RaisesAlways)
	assert.False(t, cs[1].RaisesSome)
	assert.True(t, tree.Contains(cs[1].Try, cs[0].Try))
}

// ExitsAlways: every path of the handler ends the process; a handler that
// exits on one path and raises on another raises always, but not exits.
func TestHandlerExitsAlways(t *testing.T) {
	for src, want := range map[string]bool{
		"try:\n    v = t[k]\nexcept KeyError:\n    log()\n    os._exit(1)\n":                true,
		"try:\n    v = t[k]\nexcept KeyError:\n    if a:\n        sys.exit(1)\n    raise\n": false,
		"try:\n    v = t[k]\nexcept KeyError:\n    raise RuntimeError()\n":                  false,
		"try:\n    v = t[k]\nexcept KeyError:\n    while True:\n        exit(2)\n":          true,
	} {
		tree := syntaxtest.Parse(t, src)
		c, ok := Handler(tree, findText(t, tree, "t[k]"), "KeyError")
		require.True(t, ok, src)
		assert.True(t, c.RaisesAlways, src)
		assert.Equal(t, want, c.ExitsAlways, src)
	}
}

// LeavesAlways and BreaksAlways: what a loop around the try does after the
// handler ran. A handler that logs and goes on, or continues, keeps the
// loop; one that returns leaves it with the function; one that breaks
// leaves only the innermost loop.
func TestHandlerLeavesLoop(t *testing.T) {
	for _, tc := range []struct {
		body           []string // the handler's lines, indented from the except
		leaves, breaks bool
	}{
		{[]string{"log(e)"}, false, false},
		{[]string{"log(e)", "continue"}, false, false},
		{[]string{"log(e)", "return"}, true, true},
		{[]string{"raise RuntimeError(e)"}, true, true},
		{[]string{"break"}, false, true},
		{[]string{"if a:", "    break", "return"}, false, true},
		{[]string{"if a:", "    continue", "return"}, false, false},
		{[]string{"os._exit(1)"}, true, true},
	} {
		src := "def f(q, t):\n    while True:\n        try:\n            v = t[q.get()]\n        except Exception as e:\n"
		for _, l := range tc.body {
			src += "            " + l + "\n"
		}
		tree := syntaxtest.Parse(t, src)
		c, ok := Handler(tree, findText(t, tree, "t[q.get()]"), "KeyError")
		require.True(t, ok, src)
		assert.Equal(t, tc.leaves, c.LeavesAlways, "LeavesAlways\n%s", src)
		assert.Equal(t, tc.breaks, c.BreaksAlways, "BreaksAlways\n%s", src)
	}
}

package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

type twin struct {
	name string
	src  string
	at   string // the last node with this text is queried
	fact Fact
	want bool
}

// The shapes of guards, each with a twin that must not count. The table is
// split in files by topic: guard placement and control flow here, fact
// shapes (emptiness, membership, aliases, exceptions) in shapes_test.go,
// the shapes KV managers write around tables and lengths in
// kvshapes_test.go.
var twins = append(append(flowTwins, shapeTwins...), kvTwins...)

var flowTwins = []twin{
	// is None / is not None, both orders, early exits.
	{"raise when None", `
def f(x):
    if x is None:
        raise ValueError("x")
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"guard after the use", `
def f(x):
    sink(x)
    if x is None:
        raise ValueError("x")
`, "sink(x)", notNone("x"), false},
	{"return when None", `
def f(x):
    if x is None:
        return
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"exit the process when None", `
def f(x):
    if x is None:
        sys.exit("no x")
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"a method called exit does not exit", `
def f(x):
    if x is None:
        self.exit("no x")
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"check that does not exit", `
def f(x):
    if x is None:
        log("none")
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"None on the left", `
def f(x):
    if None is not x:
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"inside the None branch", `
def f(x):
    if None is x:
        sink(x)
`, "sink(x)", isNone("x"), true},
	{"else branch of is not None", `
def f(x):
    if x is not None:
        pass
    else:
        sink(x)
`, "sink(x)", notNone("x"), false},
	{"== None", `
def f(x):
    if x != None:
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"not of a parenthesised test", `
def f(x):
    if not (x is None):
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"assert is not None", `
def f(x):
    assert x is not None, "x"
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"assert of something else", `
def f(x, y):
    assert y is not None
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"compared with a literal", `
def f(x):
    if x == "mla":
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"different with a literal", `
def f(x):
    if x != "mla":
        sink(x)
`, "sink(x)", notNone("x"), false},

	// Reassignment after the guard.
	{"reassigned after the guard", `
def f(x):
    if x is None:
        raise ValueError()
    x = g()
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"reassigned to a literal", `
def f(x):
    x = 3
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"assigned None", `
def f(x):
    x = None
    sink(x)
`, "sink(x)", isNone("x"), true},
	{"prefix reassigned", `
def f(self):
    if self.a.b is None:
        raise ValueError()
    self.a = make()
    sink(self.a.b)
`, "sink(self.a.b)", notNone("self.a.b"), false},
	{"unrelated attribute reassigned", `
def f(self):
    if self.a.b is None:
        raise ValueError()
    self.ab = make()
    self.c = make()
    sink(self.a.b)
`, "sink(self.a.b)", notNone("self.a.b"), true},
	{"key reassigned", `
def f(t, k):
    if k not in t:
        return
    k = other()
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{"loop variable rebinds", `
def f(r, rs):
    if r is None:
        raise ValueError()
    for r in rs:
        sink(r)
`, "sink(r)", notNone("r"), false},
	{"walrus rebinds", `
def f(x):
    if x is None:
        raise ValueError()
    if (x := g()):
        pass
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"passing to a function does not kill", `
def f(x):
    if not x:
        raise ValueError()
    log(x)
    helper(x, len(x))
    sink(x)
`, "sink(x)", nonEmpty("x"), true},

	// A guard in one branch only; loops.
	{"guard in one branch only", `
def f(x, c):
    if c:
        if x is None:
            raise ValueError()
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"guard in both branches", `
def f(x, c):
    if c:
        if x is None:
            raise ValueError()
    else:
        assert x is not None
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"guard inside a loop does not dominate after it", `
def f(x, rs):
    for r in rs:
        if x is None:
            raise ValueError()
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"guard before a loop holds in it", `
def f(x, rs):
    if x is None:
        raise ValueError()
    for r in rs:
        sink(x)
        x.step()
`, "sink(x)", notNone("x"), true},
	{"reassigned later in the loop body", `
def f(x, rs):
    if x is None:
        raise ValueError()
    for r in rs:
        sink(x)
        x = r.next
`, "sink(x)", notNone("x"), false},
	{"early continue", `
def f(rs):
    for r in rs:
        if r.v is None:
            continue
        sink(r.v)
`, "sink(r.v)", notNone("r.v"), true},
	{"continue of an inner loop", `
def f(rs, qs):
    for r in rs:
        for q in qs:
            if r.v is None:
                continue
        sink(r.v)
`, "sink(r.v)", notNone("r.v"), false},
	{"early break out of a wait loop", `
def f(t, k):
    while True:
        if k in t:
            break
        sleep()
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{"wait loop that can end otherwise", `
def f(t, k, done):
    while not done:
        if k in t:
            break
        sleep()
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{"while not in", `
def f(t, k):
    while k not in t:
        sleep()
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},

	// and / or.
	{"and in the body", `
def f(x, y):
    if x is not None and y:
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"or in the body", `
def f(x, y):
    if x is not None or y:
        sink(x)
`, "sink(x)", notNone("x"), false},
	{"right operand of and", `
def f(x):
    if x is not None and x.ready:
        pass
`, "x.ready", notNone("x"), true},
	{"not a or not b then raise: a", `
def f(a, b):
    if not a or not b:
        raise RuntimeError()
    sink(a, b)
`, "sink(a, b)", nonEmpty("a"), true},
	{"not a or not b then raise: b", `
def f(a, b):
    if not a or not b:
        raise RuntimeError()
    sink(a, b)
`, "sink(a, b)", nonEmpty("b"), true},
	{"x is None or not descs: x", `
def f(x, descs):
    if x is None or not descs:
        return
    sink(x, descs)
`, "sink(x, descs)", notNone("x"), true},
	{"x is None or not descs: descs", `
def f(x, descs):
    if x is None or not descs:
        return
    sink(x, descs)
`, "sink(x, descs)", nonEmpty("descs"), true},
	{"x is None and not descs", `
def f(x, descs):
    if x is None and not descs:
        return
    sink(x, descs)
`, "sink(x, descs)", notNone("x"), false},
	{"conditional expression arm", `
def f(x):
    y = x.v if x is not None else None
`, "x.v", notNone("x"), true},
	{"conditional expression other arm", `
def f(x):
    y = 0 if x is not None else sink(x)
`, "sink(x)", notNone("x"), false},
	{"and in a value", `
def f(x):
    ok = x is not None and sink(x)
`, "sink(x)", notNone("x"), true},

	// Nested ifs whose branches all exit.
	{"nested ifs all exit", `
def f(d, strict):
    if not d:
        if strict:
            raise RuntimeError()
        else:
            return None
    sink(d)
`, "sink(d)", nonEmpty("d"), true},
	{"nested ifs, one branch falls through", `
def f(d, strict):
    if not d:
        if strict:
            raise RuntimeError()
        log()
    sink(d)
`, "sink(d)", nonEmpty("d"), false},
}

func TestTwins(t *testing.T) {
	for _, tc := range twins {
		t.Run(tc.name, func(t *testing.T) {
			_, n, r := analyzeAt(t, tc.src, tc.at, Options{})
			assert.Equal(t, tc.want, r.Holds(n, tc.fact), "%s at %s; facts there: %v", tc.fact, tc.at, r.At(n))
		})
	}
}

package facts

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Fact shapes: emptiness, membership and .get(), isinstance, aliases,
// try/except/finally, scopes.
var shapeTwins = []twin{
	// Emptiness shapes.
	{"not x", `
def f(x):
    if not x:
        raise RuntimeError()
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"non-empty implies not None", `
def f(x):
    if not x:
        raise RuntimeError()
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"len == 0", `
def f(x):
    if len(x) == 0:
        raise RuntimeError()
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"array size == 0", `
def f(x):
    if x.size == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"tensor numel() > 0", `
def f(x):
    if x.numel() > 0:
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"self.size is the object's own number", `
def f(self):
    if self.size == 0:
        return
    sink(self)
`, "sink(self)", nonEmpty("self"), false},
	{"0 == len", `
def f(x):
    if 0 == len(x):
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len > 0", `
def f(x):
    if len(x) > 0:
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len != 0", `
def f(x):
    if len(x) != 0:
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len >= 1", `
def f(x):
    if len(x) >= 1:
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"0 < len", `
def f(x):
    if 0 < len(x):
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len < 1 then return", `
def f(x):
    if len(x) < 1:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len > 1 false does not mean empty", `
def f(x):
    if len(x) > 1:
        pass
    else:
        sink(x)
`, "sink(x)", empty("x"), false},
	{"len >= 0 says nothing", `
def f(x):
    if len(x) >= 0:
        sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"len as a truth value", `
def f(x):
    if not len(x):
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"empty branch", `
def f(x):
    if len(x) == 0:
        sink(x)
`, "sink(x)", empty("x"), true},
	{"mutation kills non-empty", `
def f(x):
    if not x:
        raise RuntimeError()
    x.clear()
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"mutation keeps not None", `
def f(x):
    if not x:
        raise RuntimeError()
    x.pop()
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"append makes non-empty", `
def f(x):
    x = []
    x.append(1)
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"empty literal", `
def f():
    x = []
    sink(x)
`, "sink(x)", empty("x"), true},
	{"empty literal is not non-empty", `
def f():
    x = {}
    sink(x)
`, "sink(x)", nonEmpty("x"), false},

	// Membership and .get().
	{"k in t", `
def f(t, k):
    if k in t:
        sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{"k not in t then return", `
def f(t, k):
    if k not in t:
        return
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{"k not in t without exit", `
def f(t, k):
    if k not in t:
        log(k)
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{"other key", `
def f(t, k, j):
    if k in t:
        sink(t[j])
`, "sink(t[j])", in("t", "j"), false},
	{"literal keys in either quotes", `
def f(t):
    if "name" in t:
        sink(t['name'])
`, "sink(t['name'])", in("t", "'name'"), true},
	{"store then read", `
def f(t, k, v):
    t[k] = v
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{"fill when missing", `
def f(self, k):
    if k not in self.t:
        self.t[k] = make()
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"del kills membership", `
def f(t, k):
    if k not in t:
        return
    del t[k]
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{"del gives not in", `
def f(t, k):
    del t[k]
    sink(t)
`, "sink(t)", notIn("t", "k"), true},
	{"pop kills membership", `
def f(t, k):
    if k not in t:
        return
    t.pop(k)
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{"in implies non-empty", `
def f(t, k):
    if k in t:
        sink(t)
`, "sink(t)", nonEmpty("t"), true},
	{".get then None check", `
def f(t, k):
    v = t.get(k)
    if v is None:
        raise KeyError(k)
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{".get with a default", `
def f(t, k):
    v = t.get(k, {})
    if v is None:
        raise KeyError(k)
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{".get then truth test", `
def f(t, k):
    v = t.get(k)
    if not v:
        return
    sink(t[k])
`, "sink(t[k])", in("t", "k"), true},
	{".get, table mutated after", `
def f(t, k):
    v = t.get(k)
    if v is None:
        return
    t.clear()
    sink(t[k])
`, "sink(t[k])", in("t", "k"), false},
	{".get result not None", `
def f(t, k):
    v = t.get(k)
    if v is None:
        return
    sink(v)
`, "sink(v)", notNone("v"), true},
	{"walrus get", `
def f(t, k):
    if (v := t.get(k)) is not None:
        sink(v)
`, "sink(v)", in("t", "k"), true},
	{"walrus get, None branch", `
def f(t, k):
    if (v := t.get(k)) is None:
        sink(v)
`, "sink(v)", notNone("v"), false},
	{"walrus binds the name", `
def f(self):
    if (d := self.descs) is None:
        return
    sink(self.descs)
`, "sink(self.descs)", notNone("self.descs"), true},
	{"membership then value check", `
def f(self, k):
    if k in self.t and self.t[k] is not None:
        sink(self.t[k])
`, "sink(self.t[k])", notNone("self.t[k]"), true},

	// isinstance.
	{"isinstance", `
def f(x):
    if isinstance(x, Foo):
        sink(x)
`, "sink(x)", inst("x", "Foo"), true},
	{"isinstance implies not None", `
def f(x):
    if not isinstance(x, (A, B)):
        raise TypeError()
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"isinstance else branch", `
def f(x):
    if isinstance(x, Foo):
        pass
    else:
        sink(x)
`, "sink(x)", inst("x", "Foo"), false},

	// Aliases.
	{"alias guard reaches the attribute", `
def f(self):
    d = self.descs
    if not d:
        raise RuntimeError("empty")
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), true},
	{"attribute guard reaches the alias", `
def f(self):
    if not self.descs:
        raise RuntimeError("empty")
    d = self.descs
    sink(d)
`, "sink(d)", nonEmpty("d"), true},
	{"alias broken by reassigning the attribute", `
def f(self):
    d = self.descs
    self.descs = load()
    if not d:
        raise RuntimeError("empty")
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), false},
	{"alias rebound after the guard keeps the attribute's fact", `
def f(self, other):
    d = self.descs
    if not d:
        raise RuntimeError("empty")
    d = other
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), true},
	{"mutation through the alias", `
def f(self):
    d = self.descs
    if not self.descs:
        raise RuntimeError("empty")
    d.clear()
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), false},
	{"alias of a table entry", `
def f(self, name):
    info = self.table[name]
    if info.kind is None:
        raise RuntimeError()
    sink(self.table[name].kind)
`, "sink(self.table[name].kind)", notNone("self.table[name].kind"), true},
	{"alias chain", `
def f(self):
    a = self.descs
    b = a
    if not b:
        raise RuntimeError()
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), true},
	{"attribute store through an alias", `
def f(self, info):
    dst = info
    if info.kind is None:
        return
    dst.kind = None
    sink(info.kind)
`, "sink(info.kind)", notNone("info.kind"), false},

	// try / except / finally / with.
	{"guard inside try with finally", `
def f(x):
    try:
        if x is None:
            raise ValueError()
    finally:
        cleanup()
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"guard inside try, handler swallows", `
def f(x):
    try:
        if x is None:
            raise ValueError()
    except ValueError:
        pass
    sink(x)
`, "sink(x)", notNone("x"), false},
	{"guard before try holds in the handler", `
def f(x):
    if x is None:
        raise ValueError()
    try:
        risky()
    except OSError:
        sink(x)
`, "sink(x)", notNone("x"), true},
	{"assignment in try may not have happened in the handler", `
def f():
    x = None
    try:
        x = 1
        risky()
    except OSError:
        sink(x)
`, "sink(x)", notNone("x"), false},
	{"possibly None after try/except", `
def f():
    kind = None
    try:
        kind = compute()
    except OSError:
        pass
    sink(kind)
`, "sink(kind)", isNone("kind"), false},
	{"guard in finally", `
def f(x):
    try:
        work()
    finally:
        if x is None:
            raise ValueError()
    sink(x)
`, "sink(x)", notNone("x"), true},
	{"return in try skips the rest", `
def f(x):
    try:
        if x is None:
            return None
        sink(x)
    finally:
        cleanup()
`, "sink(x)", notNone("x"), true},
	{"with body", `
def f(x, lock):
    with lock:
        if x is None:
            raise ValueError()
    sink(x)
`, "sink(x)", notNone("x"), true},

	// Scopes.
	{"facts do not enter a nested function", `
def f(x):
    if x is None:
        raise ValueError()
    def g():
        sink(x)
`, "sink(x)", notNone("x"), false},
	{"nested function's own guard", `
def f(x):
    def g(y):
        if y is None:
            return
        sink(y)
`, "sink(y)", notNone("y"), true},
	{"module level", `
CONFIG = load()
if CONFIG is None:
    raise SystemExit(1)
sink(CONFIG)
`, "sink(CONFIG)", notNone("CONFIG"), true},

	// Comprehensions.
	{"comprehension filter", `
def f(infos):
    return [sink(d.kind) for d in infos if d.kind is not None]
`, "sink(d.kind)", notNone("d.kind"), true},
	{"comprehension without filter", `
def f(infos):
    return [sink(d.kind) for d in infos]
`, "sink(d.kind)", notNone("d.kind"), false},
	{"comprehension variable shadows outer facts", `
def f(d, infos):
    if d.kind is None:
        return
    return [sink(d.kind) for d in infos]
`, "sink(d.kind)", notNone("d.kind"), false},
	{"outer guard holds in the comprehension", `
def f(self, infos):
    if not self.descs:
        return
    return {i: sink(self.descs) for i in infos}
`, "sink(self.descs)", nonEmpty("self.descs"), true},
	{"filter after the use", `
def f(infos):
    return [d for d in infos if sink(d.kind) if d.kind is not None]
`, "sink(d.kind)", notNone("d.kind"), false},
	{"nested comprehension", `
def f(groups):
    return [[sink(x) for x in g if x is not None] for g in groups if g]
`, "sink(x)", notNone("x"), true},
	{"nested comprehension sees the outer filter", `
def f(groups):
    return [[sink(g) for x in g] for g in groups if g]
`, "sink(g)", nonEmpty("g"), true},
	{"generator in a call", `
def f(t, keys):
    return any(sink(t[k]) for k in keys if k in t)
`, "sink(t[k])", in("t", "k"), true},
	// Short circuits inside comprehensions guard their right operands.
	{"and inside a generator", `
def f(self, infos):
    return any(i.peer in self.t and sink(self.t[i.peer]) for i in infos)
`, "sink(self.t[i.peer])", in("self.t", "i.peer"), true},
	{"left operand of the and is not guarded", `
def f(self, infos):
    return any(sink(self.t[i.peer]) and i.peer in self.t for i in infos)
`, "sink(self.t[i.peer])", in("self.t", "i.peer"), false},
	{"or inside a list comprehension", `
def f(self, ks):
    return [k not in self.t or sink(self.t[k]) for k in ks]
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"if clause of an inner comprehension only", `
def f(self, ks):
    return [[sink(self.t[k]) for j in k] + [j for j in k if k in self.t] for k in ks]
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"conditional expression inside a comprehension", `
def f(self, ks):
    return [sink(self.t[k]) if k in self.t else None for k in ks]
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"else arm of the conditional", `
def f(self, ks):
    return [None if k in self.t else sink(self.t[k]) for k in ks]
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a lambda in a comprehension is its own scope", `
def f(self, ks):
    return [k in self.t and (lambda: sink(self.t[k])) for k in ks]
`, "sink(self.t[k])", in("self.t", "k"), false},

	// A lookup that did not raise found its key.
	{"second lookup after a first", `
def f(self, k):
    log(f"to {self.t[k].addr}")
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"a lookup makes the table non-empty", `
def f(self):
    first = self.descs[0]
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), true},
	{"a deletion is not a lookup", `
def f(self, k):
    del self.t[k]
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a lookup whose KeyError is caught", `
def f(self, k):
    try:
        x = self.t[k]
    except KeyError:
        pass
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a pop after the lookup", `
def f(self, k):
    x = self.t[k]
    self.t.pop(k)
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a pop in the same statement", `
def f(self, k):
    x = (self.t[k], self.t.pop(k))
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a lookup on one side of and only", `
def f(self, k, c):
    x = c and self.t[k]
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a lookup in a lambda is not run", `
def f(self, k):
    g = lambda: self.t[k]
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a lookup of another key", `
def f(self, k, j):
    x = self.t[j]
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"the key rebound after the lookup", `
def f(self, k):
    x = self.t[k]
    k = other()
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a slice is not a lookup", `
def f(self):
    x = self.descs[1:]
    sink(self.descs)
`, "sink(self.descs)", nonEmpty("self.descs"), false},
}

func TestAtIncludesComprehensionGuards(t *testing.T) {
	_, n, r := analyzeAt(t, `
def f(self, infos, x):
    if x is None:
        return
    return any(i.peer in self.t and sink(self.t[i.peer]) for i in infos)
`, "sink(self.t[i.peer])", Options{})
	assert.ElementsMatch(t, []Fact{notNone("x"), in("self.t", "i.peer"), nonEmpty("self.t"), notNone("self.t"),
		in("infos", "i"), nonEmpty("infos"), notNone("infos")}, r.At(n), "the loop's item is in what it iterates")
	assert.True(t, r.Holds(n, nonEmpty("self.t")), "derived from the local fact")
}

package facts

// Guard shapes met in KV managers: arithmetic on a length ending in a zero
// test, lookups with .get() and keys taken from the table itself,
// membership in a literal, match on a length. Each with a twin that must
// not count.
var kvTwins = []twin{
	// Arithmetic on a length, then a zero test.
	{"len // k, == 0 returns", `
def f(x, k):
    n = len(x) // k
    if n == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len // k, == 0 does not return", `
def f(x, k):
    n = len(x) // k
    if n == 0:
        log(n)
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"len * k, not n", `
def f(x, k):
    n = len(x) * k
    if not n:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len - 1 is not zero when empty", `
def f(x):
    n = len(x) - 1
    if n == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"len, then n > 0", `
def f(x):
    n = len(x)
    if n > 0:
        sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len // k == 0 inline", `
def f(x, k):
    if len(x) // k == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"len // k == 0 true says nothing", `
def f(x, k):
    if len(x) // k == 0:
        sink(x)
`, "sink(x)", empty("x"), false},
	{"int(len / k) truthy", `
def f(x, k):
    if not int(len(x) / k):
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"walrus on a length", `
def f(x):
    if (n := len(x) // 2) < 1:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"x changed after the length was taken", `
def f(x):
    n = len(x)
    x.pop()
    if n == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"n rebound after", `
def f(x, m):
    n = len(x) // 2
    n = m
    if n == 0:
        return
    sink(x)
`, "sink(x)", nonEmpty("x"), false},

	// .get() tested without binding the result.
	{".get() is None then continue", `
def f(self, ks):
    for k in ks:
        if self.t.get(k) is None:
            continue
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{".get() is not None", `
def f(self, k):
    if self.t.get(k) is not None:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{".get() truthy", `
def f(self, k):
    if not self.t.get(k):
        return
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{".get() with a default is not membership", `
def f(self, k):
    if self.t.get(k, 0) is None:
        return
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{".get() is None taken", `
def f(self, k):
    if self.t.get(k) is None:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{".get() of another key", `
def f(self, k, j):
    if self.t.get(j) is None:
        return
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},

	// Keys read from the table itself.
	{"for k in list(t)", `
def f(self):
    for k in list(self.t):
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"for k, v in t.items()", `
def f(self):
    for k, v in self.t.items():
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"for k in t.keys()", `
def f(self):
    for k in self.t.keys():
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"keys of another table", `
def f(self):
    for k in list(self.u):
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"values are not keys", `
def f(self):
    for k in self.t.values():
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a copy, the current key removed", `
def f(self):
    for k in list(self.t):
        sink(self.t[k])
        del self.t[k]
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"a copy, another key removed", `
def f(self, j):
    for k in list(self.t):
        sink(self.t[k])
        self.t.pop(j, None)
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a copy, cleared", `
def f(self):
    for k in sorted(self.t):
        sink(self.t[k])
        if k:
            self.t.clear()
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"keys in a comprehension", `
def f(self):
    return {k: sink(self.t[k]) for k in self.t}
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"k not in t.keys()", `
def f(self, k):
    if k not in self.t.keys():
        return
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"k not in t.values()", `
def f(self, k):
    if k not in self.t.values():
        return
    sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},

	// Membership in a literal.
	{"not in a literal tuple, raise", `
def f(kind):
    if kind not in ("VRAM", "DRAM"):
        raise ValueError(kind)
    sink(kind)
`, "sink(kind)", notNone("kind"), true},
	{"in a literal set", `
def f(kind):
    if kind in {"VRAM", "DRAM"}:
        sink(kind)
`, "sink(kind)", notNone("kind"), true},
	{"a literal with None in it", `
def f(kind):
    if kind not in ("VRAM", None):
        raise ValueError(kind)
    sink(kind)
`, "sink(kind)", notNone("kind"), false},
	{"not in a literal, no exit", `
def f(kind):
    if kind not in ("VRAM", "DRAM"):
        log(kind)
    sink(kind)
`, "sink(kind)", notNone("kind"), false},

	// match on a length.
	{"match len: case 0 returns", `
def f(x):
    match len(x):
        case 0:
            return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"match len: case 0 falls through", `
def f(x):
    match len(x):
        case 0:
            log(x)
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"match len: later case", `
def f(x):
    match len(x):
        case 0:
            return
        case 1:
            sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"match len: case 1 says nothing after", `
def f(x):
    match len(x):
        case 1:
            return
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"match len: case 0 with a guard", `
def f(x, strict):
    match len(x):
        case 0 if strict:
            return
    sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"match len: case 0 | 1", `
def f(x):
    match len(x):
        case 0 | 1:
            return
    sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"match len: case -1 is not 1", `
def f(x):
    match len(x):
        case -1:
            sink(x)
`, "sink(x)", nonEmpty("x"), false},
	{"match on a length divided", `
def f(x):
    match len(x) // 2:
        case 0:
            return
        case _:
            sink(x)
`, "sink(x)", nonEmpty("x"), true},
	{"match None", `
def f(kind):
    match kind:
        case None:
            raise ValueError()
    sink(kind)
`, "sink(kind)", notNone("kind"), true},
	{"match a string", `
def f(kind):
    match kind:
        case "VRAM":
            sink(kind)
`, "sink(kind)", notNone("kind"), true},

	// A list of the table's keys, then a loop over it.
	{"filtered keys, then a loop", `
def f(self, addr):
    stale = [k for k in self.t if k.startswith(addr)]
    for k in stale:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"filtered keys, the loop deletes the key it is on", `
def f(self, addr):
    stale = [k for k in self.t if k.startswith(addr)]
    for k in stale:
        sink(self.t[k])
        del self.t[k]
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"filtered keys, the loop deletes another key", `
def f(self, addr, j):
    stale = [k for k in self.t if k.startswith(addr)]
    for k in stale:
        sink(self.t[k])
        del self.t[j]
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"keys copied, the table cleared before the loop", `
def f(self):
    keys = list(self.t)
    self.t.clear()
    for k in keys:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"keys of items", `
def f(self):
    live = [k for k, v in self.t.items() if v.live]
    for k in live:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), true},
	{"values are not keys", `
def f(self):
    live = [v for k, v in self.t.items()]
    for k in live:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},
	{"a list grown after", `
def f(self, extra):
    keys = list(self.t)
    keys.append(extra)
    for k in keys:
        sink(self.t[k])
`, "sink(self.t[k])", in("self.t", "k"), false},

	// getattr with a literal name reads the attribute.
	{"getattr None default, checked", `
def f(info):
    if getattr(info, "kind", None) is None:
        raise ValueError()
    sink(info.kind)
`, "sink(info.kind)", notNone("info.kind"), true},
	{"getattr, then the attribute checked", `
def f(info):
    if info.kind is None:
        return
    sink(getattr(info, "kind", None))
`, "sink(getattr(info, \"kind\", None))", notNone("info.kind"), true},
	{"getattr with another default is no path", `
def f(info):
    if getattr(info, "kind", "VRAM") is None:
        raise ValueError()
    sink(info.kind)
`, "sink(info.kind)", notNone("info.kind"), false},
	{"getattr of a computed name", `
def f(info, name):
    if getattr(info, name, None) is None:
        raise ValueError()
    sink(info.kind)
`, "sink(info.kind)", notNone("info.kind"), false},
}

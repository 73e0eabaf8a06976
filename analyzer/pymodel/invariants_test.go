package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/facts"
)

var invariantSrc = map[string]string{
	"m.py": `
import threading

class Refusing:
    def __init__(self, ptrs):
        self.descs = []
        self.args = ptrs
        self._fill(ptrs)
        if not self.descs:
            raise RuntimeError("nothing registered")
        if not self.args.ptrs:
            raise RuntimeError("no pointers")

    def _fill(self, ptrs):
        for p in ptrs:
            self.descs.append(p)

    def send(self):
        return self.descs[0]

class Sub(Refusing):
    def extra(self):
        return self.descs[-1]

class OwnInit(Refusing):
    def __init__(self, ptrs):
        self.descs = []
        self.args = ptrs

class Releasing:
    def __init__(self, ptrs):
        self.descs = list(ptrs)
        if not self.descs:
            raise RuntimeError("nothing registered")

    def release(self):
        self.descs.clear()

    def send(self):
        return self.descs[0]

class Other:
    def __init__(self):
        self.args = None

    def reset(self):
        self.args = None

class Started:
    def __init__(self, ptrs):
        self.descs = list(ptrs)
        threading.Thread(target=self.pump).start()
        if not self.descs:
            raise RuntimeError("nothing registered")

    def pump(self):
        return self.descs[0]

    def send(self):
        return self.descs[0]

class Reset:
    def __init__(self, ptrs):
        self.descs = list(ptrs)
        if not self.descs:
            raise RuntimeError("nothing registered")

def helper(mgr):
    return mgr.descs[0]
`,
}

func TestInvariants(t *testing.T) {
	ix, fl := flowProject(t, invariantSrc)
	fn := func(q string) FuncRef {
		r, ok := ix.FuncByName("m." + q)
		require.True(t, ok, q)
		return r
	}
	nonEmpty := facts.NonEmptyFact("self.descs")

	// OwnInit (a subclass) builds objects without the check: Refusing's
	// methods may run on them.
	assert.NotContains(t, fl.Invariants(fn("Refusing.send")), nonEmpty, "a subclass constructor skips the check")
	assert.Contains(t, fl.Invariants(fn("Sub.extra")), nonEmpty, "Sub's objects are built by Refusing's constructor")

	assert.NotContains(t, fl.Invariants(fn("Releasing.send")), nonEmpty, "release() empties it later")
	assert.Contains(t, fl.Invariants(fn("Started.send")), nonEmpty)
	assert.Empty(t, fl.Invariants(fn("Started.pump")), "started before the check")
	assert.NotContains(t, fl.Invariants(fn("Reset.__init__")), nonEmpty, "the constructor itself")
	assert.Empty(t, fl.Invariants(fn("helper")), "no self")
}

func TestInvariantsKilledByName(t *testing.T) {
	src := map[string]string{"m.py": `
class Refusing:
    def __init__(self, ptrs):
        self.descs = list(ptrs)
        self.args = ptrs
        if not self.descs or not self.args.ptrs:
            raise RuntimeError("nothing registered")

    def send(self):
        return self.descs[0]

class Stranger:
    def __init__(self):
        self.descs = []

    def reset(self):
        self.descs.clear()

class Other:
    def reset(self, x: Stranger):
        x.descs = []

def wipe(obj):
    obj.args.ptrs = []
`}
	ix, fl := flowProject(t, src)
	send, ok := ix.FuncByName("m.Refusing.send")
	require.True(t, ok)
	inv := fl.Invariants(send)
	assert.Contains(t, inv, facts.NonEmptyFact("self.descs"), "another class's own attribute and a typed stranger are other objects")
	assert.NotContains(t, inv, facts.NonEmptyFact("self.args.ptrs"), "an untyped receiver may be ours")
}

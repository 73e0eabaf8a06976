package recordraise_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules/recordraise"
)

var shapeRecords = []*records.Record{
	{ID: "r0000000000000001", Slug: "plan-missing", ErrorClass: "RuntimeError", MessagePattern: "plan missing",
		PreventionTips: []string{"Check the plan first."}},
	{ID: "r0000000000000002", ErrorClass: "KeyError", MessagePattern: "no peer .*"},
	{ID: "r0000000000000003", ErrorClass: "AssertionError", MessagePattern: "ring unset"},
}

// runShape checks one project given as files (want comments inside).
func runShape(t *testing.T, files map[string]string) *checker.Result {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return analysistest.RunWith(t, dir, checker.Options{Records: records.NewSet(shapeRecords)}, recordraise.Rule)
}

// Each flagged shape next to the silent twin that differs in one thing.
func TestShapes(t *testing.T) {
	cases := map[string]string{
		// The gate decides: the same chain with and without it.
		"gate.py": `
class S(BaseKVManager):
    def _plan(self):
        if not self.plan:
            raise RuntimeError("plan missing")
        return self.plan

    def send_gated(self):
        if not self.plan:
            return None
        return self._plan()

    def send_ungated(self):
        return self._plan()  # want: SGL010 "plan-missing.*hint: check for it before this call and fail only this request; the record advises: Check the plan first$"

    def send_other_gate(self):
        if not self.other:
            return None
        return self._plan()  # want: SGL010 "when ` + "`self.plan`" + ` is empty"

    def send_gate_then_reset(self):
        if not self.plan:
            return None
        self.plan = []
        return self._plan()  # want: SGL010

    def send_gate_len(self):
        if len(self.plan) == 0:
            return None
        return self._plan()
`,
		// A handler that fails one request keeps the error in; one that
		// raises again does not.
		"handlers.py": `
import threading

class W(BaseKVManager):
    def __init__(self):
        threading.Thread(target=self._loop_kept).start()
        threading.Thread(target=self._loop_reraise).start()
        threading.Thread(target=self._loop_other).start()

    def _plan(self):
        if self.plan is None:
            raise RuntimeError("plan missing")

    def _loop_kept(self):
        while True:
            try:
                self._plan()
            except RuntimeError as e:
                self.fail(e)

    def _loop_reraise(self):
        while True:
            try:
                self._plan()  # want: SGL010 "ends instead of one request failing"
            except RuntimeError:
                self.log()
                raise

    def _loop_other(self):
        while True:
            try:
                self._plan()  # want: SGL010
            except KeyError:
                pass

    def send_local(self):
        try:
            raise RuntimeError("plan missing")
        except RuntimeError:
            return None
`,
		// Parameters and receivers are translated along the chain.
		"translate.py": `
class Table:
    def lookup(self, peer):
        if peer not in self.peers:
            raise KeyError(f"no peer {peer}")
        return self.peers[peer]

class Sender(BaseKVSender):
    def __init__(self):
        self.table = Table()

    def send_checked(self, name):
        if name not in self.table.peers:
            return None
        return self.table.lookup(name)

    def send_wrong_key(self, name, other):
        if other not in self.table.peers:
            return None
        return self.table.lookup(name)  # want: SGL010 "when ` + "`name` is not in `self.table.peers`" + `"
`,
		// Nested entries: only the outermost is reported; the entry that
		// gates makes its path safe.
		"nested.py": `
class N(BaseKVManager):
    def _plan(self):
        if not self.plan:
            raise RuntimeError("plan missing")

    def send_inner(self):
        return self._plan()

    def add_transfer_request(self, dummy):
        if dummy:
            return
        self.send_inner()  # want: SGL010 "send entry ` + "`N.add_transfer_request`" + `"

    def send_outer_checked(self):
        if not self.plan:
            return
        self.send_inner()
`,
		// An entry raising itself is reported at the raise; asserts too.
		"direct.py": `
class D(BaseKVManager):
    def send_now(self):
        if self.plan is None:
            raise RuntimeError("plan missing")  # want: SGL010 "raises RuntimeError"

    def _ring(self):
        assert self.ring is not None, "ring unset"
        return self.ring

    def send_ring(self):
        return self._ring()  # want: SGL010 "AssertionError"

    def send_ring_asserted(self):
        assert self.ring, "checked differently"
        return self._ring()

    def unrelated(self):
        return self._ring()

    def send_dead(self):
        return None
        self._ring()
`,
	}
	runShape(t, cases)
}

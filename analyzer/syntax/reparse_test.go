package syntax

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/internal/stdlib"
)

// A file shaped as the KV backends are: classes of methods, nested
// blocks, comments at every indentation, decorators.
const reparseBase = `import os

# The manager.
class Manager(Base):
    """Doc."""

    def __init__(self, args):
        self.args = args
        if args:
            self.ready = True
        # a comment in the body

    @property
    def kind(self):
        return self.args.kind
# a comment at column 0, between methods

    def send(self, req):
        for x in req.items:
            if x:
                self.push(x)
            else:
                continue
        return req

    class Inner:
        def deep(self):
            return 1

        def deeper(self):
            return 2

    def last(self):
        return None


def helper(a, b=(1,
                 2)):
    return a + \
        b


if __name__ == "__main__":
    helper(1)
`

// reparseCases edits reparseBase; spliced says whether the edit is
// expected to be spliced (false: Reparse must parse the whole file).
var reparseCases = []struct {
	name    string
	old     string // replaced once in reparseBase
	new     string
	spliced bool
}{
	{"call added in a middle method", "                self.push(x)\n", "                self.push(x)\n                self.log(x)\n", true},
	{"statement changed in __init__", "self.args = args", "self.args = dict(args)", true},
	{"method added between methods", "    @property\n", "    def extra(self):\n        return 0\n\n    @property\n", true},
	{"comment at end of file", "    helper(1)\n", "    helper(1)\n# end\n", true},
	{"comment at column 0 in a body", "        return req\n", "# c0\n        return req\n", true},
	{"edit inside a nested class", "return 1", "return 1 + 1", true},
	{"edit in the last method of a nested class", "return 2", "return 3", true},
	{"edit in the last method of the class", "return None", "return self", true},
	{"docstring changed", `"""Doc."""`, `"""Other doc."""`, true},
	{"edit in a continuation line", "        b\n", "        b * 2\n", true},
	{"edit in the main block", "helper(1)", "helper(2)", true},
	{"bracket left open", "self.args = args", "self.args = (args", false},
	{"string left open", "self.args = args", "self.args = '''args", false},
	{"line continued into the next method", "        return self.args.kind\n", "        return self.args.kind \\\n", true},
	{"method dedented to the module", "    def last(self):", "def last(self):", true},
	{"else added after the main block", "    helper(1)\n", "    helper(1)\nelse:\n    pass\n", true},
	{"class header edited", "class Manager(Base):", "class Manager(Base, Mixin):", true},
	{"import changed", "import os", "import sys", true},
	{"indentation of a body changed", "            self.ready = True", "              self.ready = True", true},
	{"everything removed", reparseBase, "", false},
	{"syntax error added", "return req", "return req)", false},
	{"comment above the first statement", "import os\n", "# top\nimport os\n", false},
	{"tab indentation", "        return req\n", "        return req\n\tx = 1\n", true},
}

func TestReparseEqualsParse(t *testing.T) {
	p := NewParser()
	defer p.Close()
	old, err := p.Parse([]byte(reparseBase))
	require.NoError(t, err)
	for _, c := range reparseCases {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, reparseBase, c.old)
			src := []byte(strings.Replace(reparseBase, c.old, c.new, 1))
			// A snapshot knows the old version by its lines, so its edit
			// starts at a line start: one on the first statement's line
			// has no statement before it.
			checkReparse(t, p, old, src, c.spliced, c.spliced && c.name != "import changed")
		})
	}
}

// checkReparse reparses src from old in memory and from a snapshot of
// old, and checks each result against a whole parse of src, and whether
// it was spliced.
func checkReparse(t *testing.T, p *Parser, old *Tree, src []byte, spliced, snapshotSpliced bool) {
	t.Helper()
	want, err := p.Parse(src)
	require.NoError(t, err)
	for _, path := range []struct {
		name    string
		spliced bool
		reparse func() (*Tree, error)
	}{
		{"in memory", spliced, func() (*Tree, error) { return p.Reparse(old, src) }},
		{"from a snapshot", snapshotSpliced, func() (*Tree, error) { return p.ReparseSnapshot(Snapshot(old.Pack(nil), old.Src), src) }},
	} {
		before := p.Timing.Spliced
		got, err := path.reparse()
		require.NoError(t, err, path.name)
		require.True(t, sameTree(want, got), path.name)
		require.Equal(t, path.spliced, p.Timing.Spliced > before, "%s: spliced", path.name)
	}
}

// A damaged snapshot costs the splice, never the parse.
func TestReparseSnapshotDamaged(t *testing.T) {
	p := NewParser()
	defer p.Close()
	old, err := p.Parse([]byte(reparseBase))
	require.NoError(t, err)
	snap := Snapshot(old.Pack(nil), old.Src)
	src := []byte(reparseBase + "x = 1\n")
	want, err := p.Parse(src)
	require.NoError(t, err)
	other, err := p.Parse([]byte("x = 1\n"))
	require.NoError(t, err)
	for _, bad := range [][]byte{nil, snap[:1], snap[:len(snap)/2], snap[:len(snap)-3], append(append([]byte(nil), snap...), 0),
		Snapshot(other.Pack(nil), other.Src), // another file's: sizes and lines that do not fit
	} {
		before := p.Timing.Spliced
		got, err := p.ReparseSnapshot(bad, src)
		require.NoError(t, err)
		require.True(t, sameTree(want, got))
		require.Equal(t, before, p.Timing.Spliced, "not spliced")
	}
}

// TestReparseRandomEdits edits real Python files at random, line by line,
// and checks every reparse against a full parse. The corpus is the
// machine's standard library ($SGLINT_BENCH_CORPUS to change it: an
// sglang tree, for one); SGLINT_REPARSE_FILES sets how many files (all
// of them with 0).
func TestReparseRandomEdits(t *testing.T) {
	_, files := stdlib.Corpus(t, false)
	limit := 150
	if testing.Short() {
		limit = 30
	}
	if v, err := strconv.Atoi(os.Getenv("SGLINT_REPARSE_FILES")); err == nil {
		limit = v
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	if limit > 0 && len(files) > limit {
		files = files[:limit]
	}
	p := NewParser()
	defer p.Close()
	edits, spliced, cleanEdits, cleanSpliced := 0, 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f.Abs)
		require.NoError(t, err)
		if len(src) > 300_000 {
			continue
		}
		old, err := p.Parse(src)
		require.NoError(t, err)
		for k := range 8 {
			next := randomEdit(rng, old.Src, k)
			want, err := p.Parse(next)
			require.NoError(t, err)
			before := p.Timing.Spliced
			got, err := p.Reparse(old, next)
			require.NoError(t, err)
			reparseSpliced := p.Timing.Spliced > before
			edits++
			if reparseSpliced {
				spliced++
			}
			if k%4 == 0 { // the snapshot path too, on some
				fromSnap, err := p.ReparseSnapshot(Snapshot(old.Pack(nil), old.Src), next)
				require.NoError(t, err)
				if !sameTree(want, fromSnap) {
					got = fromSnap
				}
			}
			if !sameTree(want, got) {
				e := Diff(old.Src, next)
				if dir := os.Getenv("SGLINT_REPARSE_DUMP"); dir != "" { // both versions, to debug
					_ = os.WriteFile(dir+"/old.py", old.Src, 0o644)
					_ = os.WriteFile(dir+"/new.py", next, 0o644)
				}
				t.Fatalf("%s, edit %d (%+v): reparse differs from parse\n--- old around the edit:\n%s\n--- new:\n%s",
					f.Abs, k, e, around(old.Src, e.Start, e.OldEnd), around(next, e.Start, e.NewEnd))
			}
			if old.clean && want.clean {
				cleanEdits++
				if reparseSpliced {
					cleanSpliced++
				}
			}
			if want.clean {
				old = want // valid edits pile up, as in an editor
			}
		}
	}
	t.Logf("%d edits on %d files, %d spliced; %d of %d between trees without errors", edits, len(files), spliced, cleanSpliced, cleanEdits)
	require.Greater(t, cleanSpliced*10, cleanEdits*8, "most edits between trees without errors are spliced")
}

// sameTree reports whether a and b are the same tree of the same source:
// nodes, line starts and the clean bit.
func sameTree(a, b *Tree) bool {
	return slices.Equal(a.nodes, b.nodes) && slices.Equal(a.lineStarts, b.lineStarts) &&
		bytes.Equal(a.Src, b.Src) && a.clean == b.clean
}

func around(src []byte, from, to int) string {
	a, b := max(0, from-200), min(len(src), to+200)
	return fmt.Sprintf("%q", src[a:b])
}

// randomEdit changes src the way editing does: a line typed, deleted,
// duplicated or changed; a comment added at some indentation; text
// appended at the end.
func randomEdit(rng *rand.Rand, src []byte, k int) []byte {
	var starts []int
	starts = append(starts, 0)
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	line := func(i int) (int, int) {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		return starts[i], end
	}
	i := rng.IntN(len(starts))
	a, b := line(i)
	indent := a
	for indent < b && (src[indent] == ' ' || src[indent] == '\t') {
		indent++
	}
	ind := string(src[a:indent])
	var out []byte
	switch k % 7 {
	case 0: // a call added after the line, as indented
		out = concat(src[:b], ind+"log.debug('edit')\n", src[b:])
	case 1: // the line deleted
		out = concat(src[:a], "", src[b:])
	case 2: // the line duplicated
		out = concat(src[:b], string(src[a:b]), src[b:])
	case 3: // a character of the line changed
		if b > indent+1 {
			j := indent + rng.IntN(b-indent-1)
			out = concat(src[:j], "x", src[j+1:])
		} else {
			out = concat(src[:b], "\n", src[b:])
		}
	case 4: // a comment line, at the line's indentation or at column 0
		c := ind + "# note\n"
		if rng.IntN(2) == 0 {
			c = "# note\n"
		}
		out = concat(src[:a], c, src[a:])
	case 5: // text appended at the end
		out = concat(src, "# end\n", nil)
	default: // a word inserted inside the line
		j := indent + rng.IntN(b-indent+1)
		out = concat(src[:j], "zz", src[j:])
	}
	return out
}

func concat(a []byte, mid string, b []byte) []byte {
	out := make([]byte, 0, len(a)+len(mid)+len(b))
	return append(append(append(out, a...), mid...), b...)
}

// Shapes the random edits meet seldom: CRLF line ends, a byte-order mark,
// a class inside a function, async methods, decorators with comments
// between, triple-quoted strings across lines, form feeds. Every edit must
// give the whole parse's tree, spliced or not, from memory and from a
// snapshot.
func TestReparseUnusualShapes(t *testing.T) {
	cases := []struct {
		name, base, old, new string
		spliced              bool
	}{
		{"crlf", "class A:\r\n    def f(self):\r\n        return 1\r\n\r\n    def g(self):\r\n        return 2\r\n", "return 1", "return 10", true},
		{"crlf line added", "class A:\r\n    def f(self):\r\n        return 1\r\n\r\n    def g(self):\r\n        return 2\r\n", "        return 1\r\n", "        x = 0\r\n        return 1\r\n", true},
		{"bom", "\ufeffimport os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n", "return 1", "return 3", true},
		{"class in a function", "def outer():\n    class Inner:\n        def m(self):\n            return 1\n\n        def n(self):\n            return 2\n    return Inner\n", "return 1", "return 5", true},
		{"async method", "class A:\n    async def f(self):\n        await g()\n\n    async def h(self):\n        pass\n", "await g()", "await g(1)", true},
		{"decorator and comment", "class A:\n    @d\n    # between\n    @e\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n", "return 1", "return 2", true},
		{"string across lines", "class A:\n    def f(self):\n        s = '''\nx\n'''\n        return s\n\n    def g(self):\n        pass\n", "x\n", "y\nz\n", true},
		{"string opened", "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n", "return 1", "return '''1", false},
		{"form feed", "def f():\n    return 1\n\x0c\ndef g():\n    return 2\n", "return 1", "return 4", true},
		{"form feed indent", "class A:\n    def f(self):\n        return 1\n\x0c    def g(self):\n        return 2\n", "return 1", "return 4", true},
		{"semicolons", "def f():\n    a = 1; b = 2\n    return a\n\ndef g():\n    pass\n", "b = 2", "b = 3", true},
		{"continuation before T", "def f():\n    return 1\n\ndef g():\n    pass\n", "    return 1\n", "    return 1 + \\\n        2\n", true},
		{"deep nesting", "class A:\n    class B:\n        class C:\n            def f(self):\n                return 1\n\n            def g(self):\n                return 2\n", "return 1", "return 7", true},
		{"tabs", "class A:\n\tdef f(self):\n\t\treturn 1\n\n\tdef g(self):\n\t\treturn 2\n", "return 1", "return 8", true},
		{"match in a method", "class A:\n    def f(self, x):\n        match x:\n            case 1:\n                return 1\n\n    def g(self):\n        pass\n", "return 1", "return 9", true},
	}
	p := NewParser()
	defer p.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, err := p.Parse([]byte(c.base))
			require.NoError(t, err)
			require.Contains(t, c.base, c.old)
			src := []byte(strings.Replace(c.base, c.old, c.new, 1))
			// A snapshot's edit is whole lines: "bom" and "continuation
			// before T" end on a line followed by a blank line, then T,
			// and splice only because the edit's last byte is known to be
			// a line feed (Edit.lines).
			checkReparse(t, p, old, src, c.spliced, c.spliced)
		})
	}
}

// A snapshot knows the old version by whole lines, yet the piece it
// reparses is as small as when the bytes are known: the old line before
// the next statement ends with a line feed (the edit is whole lines), and
// the hashes say whether the last line changed joined the next with a
// backslash.
func TestSnapshotPieceIsTheStatementsTouched(t *testing.T) {
	base := `class M:
    def f(self):
        a = 1
        b = 2
        c = 3

    def g(self):
        x = 1 + \
            2
        y = 3

    def k(self):
        o = 0
        p = 1; \
        q = 2
        r = 3

    def h(self):
        return 0
`
	p := NewParser()
	defer p.Close()
	old, err := p.Parse([]byte(base))
	require.NoError(t, err)
	for _, c := range []struct {
		name, old, new string
		depth          int    // of the piece: 2 is a method's body
		piece          string // the new source the piece covers
	}{
		{"the next statement right after", "        b = 2\n", "        b = 22\n", 2, "        a = 1\n        b = 22\n"},
		{"a blank line before the next method", "        c = 3\n", "        c = 33\n", 1, "    def f(self):\n        a = 1\n        b = 2\n        c = 33\n\n"},
		{"a continuation line changed", "            2\n", "            3\n", 2, "        x = 1 + \\\n            3\n"},
		{"the line joining the next changed", "        x = 1 + \\\n", "        x = 5 + \\\n", 1, "    def g(self):\n        x = 5 + \\\n            2\n        y = 3\n\n"},
		// q = 2 started a statement on a continued line in the old
		// version: not where a piece may end, which only the hash's
		// backslash bit tells (the new line no longer joins it).
		{"a line that joined a statement changed", "        p = 1; \\\n", "        p = 1;\n", 1, "    def k(self):\n        o = 0\n        p = 1;\n        q = 2\n        r = 3\n\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(strings.Replace(base, c.old, c.new, 1))
			snap := Snapshot(old.Pack(nil), old.Src)
			packed, size, hashes, err := readSnapshot(snap)
			require.NoError(t, err)
			require.Equal(t, len(packed), len(old.Pack(nil)))
			e, ok := lineDiff(hashes, size, src, LineStarts(src))
			require.True(t, ok)
			pc, ok := choosePiece(old, e, src)
			require.True(t, ok)
			require.Equal(t, c.depth, pc.depth)
			require.Equal(t, c.piece, string(src[pc.from:pc.to]))
			checkReparse(t, p, old, src, true, true)
		})
	}
}

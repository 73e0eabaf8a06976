package facts

import (
	"strings"
	"testing"

	"github.com/sglint/sglint/analyzer/cfg"
	"github.com/sglint/sglint/analyzer/syntax"
)

// FuzzCFG builds the graph and the facts of every scope of arbitrary input
// and queries them at every node; nothing may panic, and the structure must
// stay consistent. Seeds: the twins' snippets and a few broken ones.
func FuzzCFG(f *testing.F) {
	for _, tc := range twins {
		f.Add(tc.src)
	}
	for _, s := range []string{
		"", "def f(:\n    if x is None\n        raise\n", "try:\n    pass\nfinally", "match x:\n    case [a, *b] if a: pass\n",
		"async def f():\n    async with a as b:\n        async for c in b:\n            await c\n",
		"x = [y for y in z if y and (w := y)]\nlambda: (yield)\n", "while 1:\n    try:\n        break\n    finally:\n        continue\n",
		"def f():\n    try:\n        return\n    except* E as e:\n        raise\n    else:\n        pass\n",
		"del a[b], (c, d), e.f\nglobal g\nx: int\na = b = c = None\n",
		// Found by fuzzing: a NoNode dereference, and alias cycles that
		// grew the universe and the kill propagation without bound.
		"00000000000A=A:(0)", "0()\nif A:=t:=A.g)s:s", "t=t.A0=\nt.A=B",
	} {
		f.Add(s)
	}
	p := syntax.NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		tree, err := p.Parse([]byte(src))
		if err != nil {
			return
		}
		opts := Options{
			EntryFacts:  []Fact{notNone("self.x"), in("t", "k"), nonEmpty("x")},
			CallEffects: func(syntax.NodeID) []Fact { return []Fact{nonEmpty("self.descs")} },
			CallKills:   func(syntax.NodeID) []Path { return []Path{"self.x"} },
		}
		for _, root := range cfg.Roots(tree) {
			g := cfg.New(tree, root)
			for b := range g.Blocks {
				for _, e := range g.Succs(cfg.BlockID(b)) {
					if e.From != cfg.BlockID(b) || int(e.To) >= len(g.Blocks) {
						t.Fatalf("bad edge %+v from b%d", e, b)
					}
				}
			}
			r := Analyze(tree, g, opts)
			end := tree.SubtreeEnd(root)
			for n := root; n < end; n++ {
				r.At(n)
				r.Holds(n, notNone("x"))
				if tree.Kind(n) == syntax.Subscript {
					cfg.Handler(tree, n, "KeyError")
				}
			}
			r.AtExit()
			_ = g.Format()
		}
		_ = strings.TrimSpace(src)
	})
}

package pymodel

import (
	"testing"

	"github.com/sglint/sglint/analyzer/syntax"
)

// FuzzModel: summarising any input the parser accepts, and linking it into
// a project (with a second module that imports and subclasses from it),
// never panics; nor do reachability and the function summaries.
func FuzzModel(f *testing.F) {
	for _, src := range kvProject {
		f.Add(src)
	}
	for _, src := range escapeProject {
		f.Add(src)
	}
	f.Add("class C(C):\n    def m(self): super().m(); self.m()\n")
	f.Add("from . import *\nfrom .. import x\nimport a.b.c\nx = x\nclass D(x.y[0]): pass\n")
	f.Add("def f(\n    self.a = [\n  try:\n except (:\n")
	f.Add("lambda: (yield)\nclass A:\n  x: 'Optional[' = None\n  def f(self, *, a, **k): del self.a[1:2], self.b\n")
	p := syntax.NewParser()
	defer p.Close()
	var z Summarizer
	f.Fuzz(func(t *testing.T, src string) {
		tree, err := p.Parse([]byte(src))
		if err != nil {
			return
		}
		s := z.Summarize(tree)
		other := Summarize(mustParse(t, p, "from .m import *\nfrom . import m\nclass Sub(m.C, K):\n    def run(self):\n        self.m(); super().x(); m.f()\n"))
		ix := NewIndex([]SourceFile{
			{Path: "pkg/m.py", Module: "pkg.m", Summary: s},
			{Path: "pkg/__init__.py", Module: "pkg", Package: true, Summary: other},
		})
		var starts []Start
		for fi := range ix.Files {
			for _, fn := range ix.FuncsOf(int32(fi)) {
				starts = append(starts, Start{Func: fn, Self: NoClass})
				_ = ix.FuncSummary(fn)
			}
			for ci := range ix.Summary(int32(fi)).Classes {
				c := ClassRef{int32(fi), int32(ci)}
				for _, name := range ix.SelfPaths(c) {
					_ = ix.Attr(c, name)
					_, _ = ix.AttrType(c, name)
				}
			}
		}
		r := ix.Reachable(starts, ReachOptions{Virtual: true})
		for _, fn := range r.Funcs() {
			_ = r.Chain(fn)
		}
	})
}

func mustParse(t *testing.T, p *syntax.Parser, src string) *syntax.Tree {
	tree, err := p.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

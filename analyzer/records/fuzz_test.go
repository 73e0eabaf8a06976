package records

import (
	"testing"

	"github.com/sglint/sglint/analyzer/syntax"
)

// FuzzFind: any source and any pattern, never a panic. The seeds run
// under go test; `go test -fuzz FuzzFind ./analyzer/records` explores.
func FuzzFind(f *testing.F) {
	f.Add("raise RuntimeError(f\"x {a} %s {{\" % b + c)\n", "x .*")
	f.Add("assert a, 'm %(k' % d\n", `m \d+(`)
	f.Add("raise E('{' .format(1))\nraise E('\\", "(?i)^$")
	f.Add("def f():\n  m = m\n  raise E(m)\n", "a|b*")
	p := syntax.NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src, pattern string) {
		tree, err := p.Parse([]byte(src))
		if err != nil {
			return
		}
		set := NewSet([]*Record{
			{ID: "a", ErrorClass: "RuntimeError", MessagePattern: pattern},
			{ID: "b", ErrorClass: "E", MessagePattern: pattern},
			{ID: "c", ErrorClass: "AssertionError", MessagePattern: pattern},
		})
		for _, s := range set.Find(tree) {
			CondText(tree, s.Conds)
		}
	})
}

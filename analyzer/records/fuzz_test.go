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
	f.Add("class E(Exception):\n  def __str__(self):\n    return f'E({self.r}): {self.m}'\nraise E(1, 2)\n", `E\(\d+\): .*`)
	f.Add("h = mgr.h\nassert h is not None\nassert mgr.descs\n", "")
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
		// The same source as a record's guard fields.
		(&Record{ValidationCode: src, TypeGuard: src, TryCatchPattern: src}).Required()
	})
}

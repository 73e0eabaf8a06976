package pymodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAttrByName(t *testing.T) {
	ix := project(t, map[string]string{
		"pkg/info.py": `
import dataclasses
from typing import Optional

@dataclasses.dataclass
class Info:
    name: str
    kind: Optional[str] = None

class Base:
    def __init__(self):
        self.kind = None
        self.mgr.kind = "x"
`,
		"pkg/prep.py": `
class Sub(Base):
    def start(self):
        self.kind = "VRAM"

def prepare(info, kind):
    info.kind = kind
    info.other = 1
`,
	})
	names := func(cs []ClassRef) []string {
		var out []string
		for _, c := range cs {
			out = append(out, ix.ClassName(c))
		}
		return out
	}
	assert.Equal(t, []string{"pkg.info.Info", "pkg.info.Base", "pkg.prep.Sub"}, names(ix.AttrDeclarers("kind")))
	assert.Equal(t, []string{"pkg.info.Info"}, names(ix.AttrDeclarers("name")))
	// self.mgr.kind declares nothing on Base; info.other declares nothing.
	assert.Empty(t, ix.AttrDeclarers("mgr"))
	assert.Empty(t, ix.AttrDeclarers("other"))
	assert.Empty(t, ix.AttrDeclarers("missing"))

	var where []string
	for _, u := range ix.AttrAssigns("kind") {
		where = append(where, ix.FuncName(FuncRef{u.File, ix.Use(u).Func}))
	}
	assert.Equal(t, []string{"pkg.info.Base.__init__", "pkg.info.Base.__init__", "pkg.prep.Sub.start", "pkg.prep.prepare"}, where)
}

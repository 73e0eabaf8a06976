package pymodel

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

func summarize(t testing.TB, src string) *Summary {
	t.Helper()
	return Summarize(syntaxtest.Parse(t, src))
}

// useLines renders the uses of a summary compactly:
// "f: self.descs assign empty-list" / "f: p1.kind assign literal".
func useLines(s *Summary) []string {
	var out []string
	for _, u := range s.Uses {
		root := "self"
		if !u.Self {
			root = s.Functions[u.Func].Params[u.Param].Name
		}
		p := root
		if u.Path != "" {
			p += "." + u.Path
		}
		line := fmt.Sprintf("%s: %s %s", s.Functions[u.Func].Name, p, u.Kind)
		if u.Op != OpNone {
			line += " " + u.Op.String()
		}
		if u.Kind == Assign {
			line += " " + u.Value.String()
			if u.Annotation != "" {
				line += " : " + u.Annotation
			}
			if u.Optional {
				line += " optional"
			}
		}
		out = append(out, line)
	}
	return out
}

func TestSelfUses(t *testing.T) {
	tests := []struct {
		body string // method body of class C(method m(self, p))
		want []string
	}{
		{"self.a = []", []string{"m: self.a assign empty-list"}},
		{"self.a = list()", []string{"m: self.a assign empty-list"}},
		{"self.a = {}", []string{"m: self.a assign empty-dict"}},
		{"self.a = dict()", []string{"m: self.a assign empty-dict"}},
		{"self.a = set()", []string{"m: self.a assign empty-set"}},
		{"self.a = ()", []string{"m: self.a assign empty-tuple"}},
		{"self.a = defaultdict(list)", []string{"m: self.a assign empty-dict"}},
		{"self.a = [1]", []string{"m: self.a assign literal"}},
		{"self.a = list(p)", []string{"m: self.a assign call", "m: p read iter"}},
		{"self.a = None", []string{"m: self.a assign None"}},
		{"self.a = p if p else None", []string{"m: self.a assign maybe-None"}},
		{"self.a: Optional[int] = None", []string{"m: self.a assign None : Optional[int] optional"}},
		{"self.a: List[int] = []", []string{"m: self.a assign empty-list : List[int]"}},
		{"self.a = self.b = []", []string{"m: self.a assign empty-list", "m: self.b assign empty-list"}},
		{"self.a, self.b = [], None", []string{"m: self.a assign empty-list", "m: self.b assign None"}},
		{"self.a.append(1)", []string{"m: self.a mutate append"}},
		{"self.a.extend(p)", []string{"m: self.a mutate extend"}},
		{"self.a.insert(0, 1)", []string{"m: self.a mutate insert"}},
		{"self.a.add(1)", []string{"m: self.a mutate add"}},
		{"self.a.update({})", []string{"m: self.a mutate update"}},
		{"self.a.setdefault(1, [])", []string{"m: self.a mutate setdefault"}},
		{"self.a[1] = 2", []string{"m: self.a mutate setitem"}},
		{"self.a[1] += 2", []string{"m: self.a mutate setitem"}},
		{"del self.a[1]", []string{"m: self.a mutate delitem"}},
		{"self.a.pop(1)", []string{"m: self.a mutate pop"}},
		{"self.a.clear()", []string{"m: self.a mutate clear"}},
		{"self.a += [1]", []string{"m: self.a mutate augassign"}},
		{"del self.a", []string{"m: self.a delete"}},
		{"x = self.a[0]", []string{"m: self.a read index"}},
		{"x = self.a[1:]", []string{"m: self.a read slice"}},
		{"for x in self.a: pass", []string{"m: self.a read iter"}},
		{"y = [x for x in self.a]", []string{"m: self.a read iter"}},
		{"for i, x in enumerate(self.a): pass", []string{"m: self.a read iter"}},
		{"n = len(self.a)", []string{"m: self.a read len"}},
		{"f(self.a)", []string{"m: self.a read arg"}},
		{"f(k=self.a)", []string{"m: self.a read arg"}},
		{"f(*self.a)", []string{"m: self.a read iter"}},
		{"x, y = self.a", []string{"m: self.a read unpack"}},
		{"x = self.a.get(1)", []string{"m: self.a read method"}},
		{"if not self.a: pass", []string{"m: self.a read plain"}},
		{"x = self.b.c[0]", []string{"m: self.b.c read index"}},
		{"self.b.c.append(1)", []string{"m: self.b.c mutate append"}},
		{"self.m()", nil},
		{"f(self)", nil},
		// Parameters: stores and interesting uses; plain uses of the bare name are the calls' business.
		{"p.kind = 1", []string{"m: p.kind assign literal"}},
		{"p[0] = 1", []string{"m: p mutate setitem"}},
		{"p.append(1)", []string{"m: p mutate append"}},
		{"x = p[0]", []string{"m: p read index"}},
		{"f(p)", nil},
		{"p = 3", nil},
		{"x = p.a", []string{"m: p.a read plain"}},
		// A closure over self records its uses on the closure.
		{"def g():\n            self.a.append(1)\n        g()", []string{"g: self.a mutate append"}},
		{"h = lambda: self.a[0]", []string{"<lambda>: self.a read index"}},
		// A nested function whose parameter shadows self: a store on a parameter.
		{"def g(self):\n            self.a = 1", []string{"g: self.a assign literal"}},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			src := "class C:\n    def m(self, p):\n        " + tc.body + "\n"
			s := summarize(t, src)
			assert.Equal(t, tc.want, useLines(s))
			for _, f := range s.Functions {
				if f.Name != "g" || len(f.Params) == 0 {
					assert.Equal(t, int32(0), f.SelfClass, f.Name)
				}
			}
		})
	}
}

func TestClassesAndFields(t *testing.T) {
	src := `import dataclasses
from typing import Optional, Union

@dataclasses.dataclass(frozen=True)
class Info(Base, mixins.Mixin, metaclass=Meta):
    """Doc."""
    name: str
    kind: Optional[str] = None
    other: "str | None" = None
    u: Union[int, None] = 0
    v: int | None = 1
    plain = 3
    items: List[int] = field(default_factory=list)
    cv: ClassVar[int] = 0

    @property
    def key(self) -> str:
        return self.name

    @staticmethod
    def make() -> "Info":
        ...

    @classmethod
    def build(cls, x) -> Optional["Info"]:
        return None

    @abc.abstractmethod
    async def run(self):
        raise NotImplementedError

class Plain:
    pass
`
	s := summarize(t, src)
	require.Len(t, s.Classes, 2)
	c := s.Classes[0]
	assert.Equal(t, "Info", c.Name)
	assert.True(t, c.Dataclass)
	assert.Equal(t, []string{"dataclasses.dataclass(frozen=True)"}, c.Decorators)
	assert.Equal(t, []string{"Base", "mixins.Mixin"}, c.Bases)
	assert.Equal(t, "Meta", c.Metaclass)
	var fields []string
	for _, f := range c.Fields {
		fields = append(fields, fmt.Sprintf("%s:%s opt=%v val=%v cv=%v", f.Name, f.Annotation, f.Optional, f.Value, f.ClassVar))
	}
	assert.Equal(t, []string{
		"name:str opt=false val=other cv=false",
		"kind:Optional[str] opt=true val=None cv=false",
		`other:"str | None" opt=true val=None cv=false`,
		"u:Union[int, None] opt=true val=literal cv=false",
		"v:int | None opt=true val=literal cv=false",
		"plain: opt=false val=literal cv=false",
		"items:List[int] opt=false val=empty-list cv=false",
		"cv:ClassVar[int] opt=false val=literal cv=true",
	}, fields)
	var fns []string
	for _, i := range c.Methods {
		f := s.Functions[i]
		fns = append(fns, fmt.Sprintf("%s %s ret=%q opt=%v stub=%v abstract=%v async=%v", f.QualName, f.Kind, f.Returns, f.ReturnsOptional, f.Stub, f.Abstract, f.Async))
	}
	assert.Equal(t, []string{
		`Info.key property ret="str" opt=false stub=false abstract=false async=false`,
		`Info.make staticmethod ret="\"Info\"" opt=false stub=true abstract=false async=false`,
		`Info.build classmethod ret="Optional[\"Info\"]" opt=true stub=false abstract=false async=false`,
		`Info.run method ret="" opt=false stub=true abstract=true async=true`,
	}, fns)
	assert.False(t, s.Classes[1].Dataclass)
	assert.Equal(t, 5, int(c.NameAt.Line))
	assert.Equal(t, 4, int(c.At.Line), "a decorated class starts at its decorator")
}

func TestParams(t *testing.T) {
	s := summarize(t, "def f(a, b: int, /, c=None, d: Optional[str] = None, *args, e, f: int = 2, **kw) -> None:\n    pass\n")
	require.Len(t, s.Functions, 1)
	var got []string
	for _, p := range s.Functions[0].Params {
		got = append(got, fmt.Sprintf("%s kind=%d idx=%d ann=%q def=%q/%v opt=%v", p.Name, p.Kind, p.Index, p.Annotation, p.Default, p.DefaultKind, p.Optional))
	}
	assert.Equal(t, []string{
		`a kind=0 idx=0 ann="" def=""/other opt=false`,
		`b kind=0 idx=1 ann="int" def=""/other opt=false`,
		`c kind=0 idx=2 ann="" def="None"/None opt=true`,
		`d kind=0 idx=3 ann="Optional[str]" def="None"/None opt=true`,
		`args kind=2 idx=-1 ann="" def=""/other opt=false`,
		`e kind=1 idx=-1 ann="" def=""/other opt=false`,
		`f kind=1 idx=-1 ann="int" def="2"/literal opt=false`,
		`kw kind=3 idx=-1 ann="" def=""/other opt=false`,
	}, got)
	s = summarize(t, "def g(a, *, b): pass\n")
	assert.Equal(t, KeywordOnly, s.Functions[0].Params[1].Kind)
}

func TestReturnsAndFallsOff(t *testing.T) {
	tests := []struct {
		body     string
		fallsOff bool
		gen      bool
	}{
		{"return 1", false, false},
		{"pass", true, false},
		{"if x:\n        return 1", true, false},
		{"if x:\n        return 1\n    else:\n        raise E()", false, false},
		{"if x:\n        return 1\n    elif y:\n        return 2", true, false},
		{"if x:\n        return 1\n    elif y:\n        return 2\n    else:\n        return 3", false, false},
		{"try:\n        return f()\n    except E:\n        return None", false, false},
		{"try:\n        return f()\n    except E:\n        log()", true, false},
		{"try:\n        f()\n    finally:\n        return 1", false, false},
		{"while True:\n        x()", false, false},
		{"while True:\n        if x:\n            break", true, false},
		{"while True:\n        for i in x:\n            break", false, false},
		{"with lock:\n        return 1", false, false},
		{"sys.exit(1)", false, false},
		{"yield 1", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			s := summarize(t, "def f():\n    "+tc.body+"\n")
			require.NotEmpty(t, s.Functions)
			assert.Equal(t, tc.fallsOff, s.Functions[0].FallsOff)
			assert.Equal(t, tc.gen, s.Functions[0].Generator)
		})
	}
	s := summarize(t, "def f(x):\n    if x:\n        return\n    if x > 1:\n        return None\n    return g(x) if x else None\n    return await h()\n")
	var got []string
	for _, r := range s.Returns {
		got = append(got, fmt.Sprintf("%v call=%d", r.Value, r.Call))
	}
	assert.Equal(t, []string{"None call=-1", "None call=-1", "maybe-None call=-1", "other call=1"}, got)
	assert.Equal(t, "h", s.Calls[1].Name)
}

func TestImportsSummary(t *testing.T) {
	s := summarize(t, `from ..common.conn import CommonKVManager as K, X
from . import x
import a.b as c, d.e
from m import *
from __future__ import annotations
def f():
    import json
`)
	var got []string
	for _, i := range s.Imports {
		got = append(got, fmt.Sprintf("fn=%d level=%d module=%q name=%q alias=%q", i.Func, i.Level, i.Module, i.Name, i.Alias))
	}
	assert.Equal(t, []string{
		`fn=-1 level=2 module="common.conn" name="CommonKVManager" alias="K"`,
		`fn=-1 level=2 module="common.conn" name="X" alias="X"`,
		`fn=-1 level=1 module="" name="x" alias="x"`,
		`fn=-1 level=0 module="a.b" name="" alias="c"`,
		`fn=-1 level=0 module="d.e" name="" alias="d"`,
		`fn=-1 level=0 module="m" name="*" alias="*"`,
		`fn=-1 level=0 module="__future__" name="annotations" alias="annotations"`,
		`fn=0 level=0 module="json" name="" alias="json"`,
	}, got)
}

func TestCallsAndArgs(t *testing.T) {
	s := summarize(t, `class C(B):
    def m(self, info):
        super().__init__(1, k=2)
        super(C, self).run()
        self.kv.send(info.kind, *rest, dst_mem_kind=info.kind, **kw)
        threading.Thread(target=self.worker, daemon=True).start()
        f(lambda: self.x)(1)
        await self.g()
`)
	var got []string
	for _, c := range s.Calls {
		var args []string
		for _, a := range s.Args[c.Args[0]:c.Args[1]] {
			args = append(args, fmt.Sprintf("%s/%d/%d/%s/%q", a.Keyword, a.Index, a.Star, a.Value, a.Path))
		}
		got = append(got, fmt.Sprintf("%d %q.%q await=%v [%s]", c.Kind, c.Recv, c.Name, c.Await, strings.Join(args, " ")))
	}
	assert.Equal(t, []string{
		`3 ""."__init__" await=false [/0/0/literal/"" k/-1/0/literal/""]`,
		`1 ""."super" await=false []`,
		`3 "C"."run" await=false []`,
		`1 ""."super" await=false [/0/0/name/"C" /1/0/name/"self"]`,
		`2 "self.kv"."send" await=false [/0/0/name/"info.kind" /-1/1/name/"rest" dst_mem_kind/-1/0/name/"info.kind" /-1/2/name/"kw"]`,
		`0 ""."start" await=false []`,
		`2 "threading"."Thread" await=false [target/-1/0/name/"self.worker" daemon/-1/0/literal/""]`,
		`0 ""."" await=false [/0/0/literal/""]`,
		`1 ""."f" await=false [/0/0/lambda/""]`,
		`2 "self"."g" await=true []`,
	}, got)
	// The lambda argument points at its function.
	lam := s.Args[s.Calls[8].Args[0]]
	require.GreaterOrEqual(t, lam.Lambda, int32(0))
	assert.Equal(t, Lambda, s.Functions[lam.Lambda].Kind)
}

func TestTriesAndRaises(t *testing.T) {
	s := summarize(t, `def f():
    try:
        try:
            g()
        except (KeyError, IndexError) as e:
            raise
        except ValueError as v:
            raise RuntimeError("bad value") from v
        except OSError as o:
            raise o
    except Exception:
        pass
    finally:
        cleanup()
    raise KVError(f"room {r}")
`)
	require.Len(t, s.Tries, 2)
	outer, inner := s.Tries[0], s.Tries[1]
	assert.Equal(t, int32(-1), outer.Outer)
	assert.Equal(t, int32(0), inner.Outer)
	assert.True(t, outer.Finally)
	var hs []string
	for _, h := range inner.Handlers {
		hs = append(hs, fmt.Sprintf("%v as %q reraises=%v", h.Types, h.Name, h.Reraises))
	}
	assert.Equal(t, []string{"[KeyError IndexError] as \"e\" reraises=true", "[ValueError] as \"v\" reraises=false", "[OSError] as \"o\" reraises=true"}, hs)
	assert.Equal(t, []string{"Exception"}, outer.Handlers[0].Types)
	var rs []string
	for _, r := range s.Raises {
		rs = append(rs, fmt.Sprintf("%q %q try=%d handler=%d/%d", r.Type, r.Message, r.Try, r.HandlerTry, r.Handler))
	}
	assert.Equal(t, []string{
		`"" "" try=0 handler=1/0`,
		`"RuntimeError" "bad value" try=0 handler=1/1`,
		`"o" "" try=0 handler=1/2`,
		`"KVError" "room {r}" try=-1 handler=-1/0`,
	}, rs)
	assert.Equal(t, int32(1), s.Calls[0].Try, "g() is in the inner try's body")
	for _, c := range s.Calls {
		if c.Name == "cleanup" {
			assert.Equal(t, int32(-1), c.Try, "finally is not the body")
		}
	}
}

func TestLocalsAndGlobals(t *testing.T) {
	s := summarize(t, `logger = logging.getLogger(__name__)
Alias = pkg.Thing
X: int = 3
def f(p):
    m = Manager()
    n: Sender = make()
    q = Manager()
    q = 3
    r = 1
`)
	var gs []string
	for _, g := range s.Globals {
		gs = append(gs, fmt.Sprintf("%s %s %q %q", g.Name, g.Value, g.Ref, g.Annotation))
	}
	assert.Equal(t, []string{`logger call "logging.getLogger" ""`, `Alias name "pkg.Thing" ""`, `X literal "" "int"`}, gs)
	var ls []string
	for _, l := range s.Locals {
		ls = append(ls, fmt.Sprintf("%s=%q ctor=%v", l.Name, l.Type, l.Ctor))
	}
	assert.Equal(t, []string{`m="Manager" ctor=true`, `n="Sender" ctor=false`, `q="Manager" ctor=true`, `q="" ctor=false`}, ls)
}

func TestPositions(t *testing.T) {
	s := summarize(t, "# é\nclass C:\n    def m(self):\n        x = 'é'; self.a.append(1)\n")
	require.Len(t, s.Uses, 1)
	u := s.Uses[0]
	assert.Equal(t, int32(4), u.At.Line)
	assert.Equal(t, int32(18), u.At.Col, "columns count code points")
	// Positions agree with the tree's.
	tree := syntaxtest.Parse(t, "# é\nclass C:\n    def m(self):\n        x = 'é'; self.a.append(1)\n")
	p := tree.Start(u.At.Node)
	assert.Equal(t, p, u.At.Position())
}

func TestPartialOnErrors(t *testing.T) {
	s := summarize(t, "class C:\n    def m(self:\n        self.a = [\n")
	assert.True(t, s.Partial)
	s = summarize(t, "x = 1\n")
	assert.False(t, s.Partial)
}

// The summary is plain data: it survives gob and JSON unchanged (issue 8
// caches it by content hash).
func TestSummarySerialises(t *testing.T) {
	s := summarize(t, `from .a import B
@dataclass
class C(B):
    x: Optional[int] = None
    def m(self, p: "B"):
        try:
            self.d[p] = []
        except KeyError:
            raise
        return self.d.get(p)
`)
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(s))
	var back Summary
	require.NoError(t, gob.NewDecoder(&buf).Decode(&back))
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(&back)
	assert.JSONEq(t, string(a), string(b))
	var back2 Summary
	require.NoError(t, json.Unmarshal(a, &back2))
	c, _ := json.Marshal(&back2)
	assert.JSONEq(t, string(a), string(c))
}

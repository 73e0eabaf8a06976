// Package emptysend is SGL007 kv-empty-transfer: the scheduler hands a KV
// sender one chunk of a request's page indices that the project itself
// shows can be empty, and nothing on the way concludes the request or
// refuses the empty chunk, so the decode side waits for a chunk that moves
// nothing and completes nothing.
//
// The rule looks at each call of a sender's send method (SendMethods) on
// a KV path, asks where its indices come from (evidence.go), and reports
// it when some origin can be empty, no test of the indices' length comes
// first, the request was not concluded before it, and not every backend's
// send looks at the length itself.
package emptysend

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/reaching"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/namepattern"
	"github.com/sglint/sglint/rules/sendpath"
)

//go:embed doc.md
var doc string

// Record is the error record the rule derives from: its send "moves no KV"
// when what it reads is empty, its typeGuard is a length test on that
// value, and its tryCatchPattern holds the send back instead of letting it
// run on nothing.
const Record = "795554d942550d42"

// Rule SGL007 kv-empty-transfer.
var Rule = &analyzer.Rule{
	ID:           "SGL007",
	Name:         "kv-empty-transfer",
	Severity:     analyzer.Error,
	Title:        "A KV send of a request's indices that can be empty neither concludes the request nor is refused",
	Doc:          doc,
	Record:       Record,
	RecordUse:    "Its send moves no KV when what it reads is empty; its typeGuard is a length test of that value and its tryCatchPattern holds the send back: SGL007 asks for a length test before a chunk that can be empty goes out.",
	RecordFields: []string{"typeGuard", "tryCatchPattern"},
	Sections:     []*analyzer.Section{sendpath.Section},
	Demand:       sendpath.Demand,
	Options:      func() any { return DefaultOptions() },
	Run:          run,
}

// Options configure SGL007 ([tool.sglint.rules.SGL007]).
type Options struct {
	// SendMethods are the methods of a KV sender that move one chunk of a
	// request (shell patterns).
	SendMethods []string `toml:"send-methods"`
	// SenderNames are the receivers taken for a KV sender when the model
	// cannot type them, as shell patterns on their last name
	// (`req.disagg_kv_sender`).
	SenderNames []string `toml:"sender-names"`
}

// DefaultOptions are the options when nothing is configured.
func DefaultOptions() *Options {
	return &Options{SendMethods: []string{"send"}, SenderNames: []string{"*kv_sender"}}
}

// Validate rejects malformed patterns.
func (o *Options) Validate() error {
	for key, pats := range map[string][]string{"send-methods": o.SendMethods, "sender-names": o.SenderNames} {
		if _, err := namepattern.Compile(pats); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
	}
	return nil
}

func run(pass *analyzer.Pass) error {
	f := pass.File
	ix := pass.Project.Index
	if f.Summary == nil || ix == nil || f.Model < 0 || int(f.Model) >= len(ix.Files) {
		return nil
	}
	opts := analyzer.OptionsOf(pass, DefaultOptions)
	methods, _ := namepattern.Compile(opts.SendMethods)
	senders, _ := namepattern.Compile(opts.SenderNames)
	c := &checker{pass: pass, ix: ix, paths: sendpath.Of(pass), flows: map[pymodel.FuncRef]*flow{},
		returns: map[retKey]*origin{}}
	s := ix.Summary(f.Model)
	// Inside the backends: indices parameters handed on to the transport.
	for fi := range s.Functions {
		fn := pymodel.FuncRef{File: f.Model, Func: int32(fi)}
		if c.paths.OnPath(fn) && c.paths.Scope().Contains(fn) {
			c.checkBackend(fn)
		}
	}
	// At the hand-off to a sender.
	for ci := range s.Calls {
		call := &s.Calls[ci]
		if call.Func < 0 || call.Kind != pymodel.RefAttr || !methods.Match(call.Name) {
			continue
		}
		fn := pymodel.FuncRef{File: f.Model, Func: call.Func}
		if !c.paths.OnKVPath(fn) || c.paths.Scope().Contains(fn) {
			continue // a sender calling its own send is inside the backend
		}
		site := pymodel.CallSite{File: f.Model, Call: int32(ci)}
		impls, ok := c.sendImpls(site, call, senders)
		if ok {
			c.checkSend(fn, site, impls)
		}
	}
	return nil
}

type checker struct {
	pass    *analyzer.Pass
	ix      *pymodel.Index
	paths   *sendpath.Paths
	flows   map[pymodel.FuncRef]*flow
	returns map[retKey]*origin
	tests   map[string][]emptinessTest // name -> where KV classes test it for emptiness
}

// flow is one function's graph with what is known along it.
type flow struct {
	fn    pymodel.FuncRef
	file  *analyzer.File
	tree  *syntax.Tree
	def   syntax.NodeID
	facts *facts.Result // nil when the function is not analysed
	defs  *reaching.Result
}

// flowOf builds (once per pass) the flow of fn; nil when its tree is not
// loaded.
func (c *checker) flowOf(fn pymodel.FuncRef) *flow {
	if fl, ok := c.flows[fn]; ok {
		return fl
	}
	var fl *flow
	file := c.pass.Project.ModelFile(fn.File)
	pf := c.pass.Project.Flow
	if file != nil && pf != nil {
		if g := pf.Graph(fn); g != nil {
			fr := c.paths.Facts(fn)
			if fr == nil {
				fr = pf.Facts(fn)
			}
			fl = &flow{fn: fn, file: file, tree: file.Tree(), def: c.ix.Func(fn).Def, facts: fr, defs: reaching.Analyze(g)}
		}
	}
	c.flows[fn] = fl
	return fl
}

// sendImpls decides whether the call at site sends a chunk through a KV
// sender, and returns the backends' send methods it may run: the
// project's resolution of the call when it names methods of KV sender
// classes, else, for a receiver named like a sender, every KV sender
// class's method of that name.
func (c *checker) sendImpls(site pymodel.CallSite, call *pymodel.Call, senders *namepattern.Set) ([]pymodel.FuncRef, bool) {
	scope := c.paths.Scope()
	var impls []pymodel.FuncRef
	for _, cal := range c.ix.Callees(site) {
		if !cal.Func.Valid() {
			continue
		}
		if owner, ok := scope.Owner(cal.Func); ok && isSender(scope, owner) {
			impls = append(impls, cal.Func)
		}
	}
	if len(impls) > 0 {
		return impls, true
	}
	last := call.Recv
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		last = last[i+1:]
	}
	if !senders.Match(last) {
		return nil, false
	}
	for _, cl := range scope.Classes() {
		if !isSender(scope, cl) {
			continue
		}
		if m := c.ix.LookupMethod(cl, call.Name); m.Func.Valid() {
			impls = append(impls, m.Func)
		}
	}
	sort.Slice(impls, func(i, j int) bool {
		a, b := impls[i], impls[j]
		return a.File < b.File || a.File == b.File && a.Func < b.Func
	})
	return dedupe(impls), true
}

func isSender(scope *sendpath.Scope, c pymodel.ClassRef) bool {
	return strings.HasSuffix(scope.Base(c), "Sender")
}

func dedupe(fs []pymodel.FuncRef) []pymodel.FuncRef {
	out := fs[:0]
	for i, f := range fs {
		if i == 0 || f != fs[i-1] {
			out = append(out, f)
		}
	}
	return out
}

// checkSend reports the send at site when its indices can be empty and
// nothing refuses or concludes the empty chunk.
func (c *checker) checkSend(fn pymodel.FuncRef, site pymodel.CallSite, impls []pymodel.FuncRef) {
	fl := c.flowOf(fn)
	if fl == nil {
		return
	}
	arg, ai := indicesArg(c.ix.Args(site))
	if arg == syntax.NoNode {
		return
	}
	o := c.canBeEmpty(fl, arg, 0, nil)
	if o == nil {
		return
	}
	call := c.ix.Call(site)
	callNode := call.At.Node
	if c.refused(fl, callNode, o.names) || concluded(fl.tree, callNode, fl.def) {
		return
	}
	var unchecked []pymodel.FuncRef
	for _, impl := range impls {
		if c.ix.Func(impl).Stub {
			continue // an abstract send or a fake backend's: nothing to look at
		}
		if !c.implHandles(site, impl, ai) {
			unchecked = append(unchecked, impl)
		}
	}
	if len(unchecked) == 0 && len(impls) > 0 {
		return // every backend looks at the length itself
	}
	c.report(fl, arg, call, o, unchecked)
}

// indicesArg is the argument that carries the chunk's indices: the first
// positional one, or a keyword naming indices; its index in args.
func indicesArg(args []pymodel.Arg) (syntax.NodeID, int) {
	for i, a := range args {
		if a.Star != 0 || a.Lambda >= 0 {
			continue
		}
		if a.Keyword == "" && a.Index == 0 || strings.HasSuffix(a.Keyword, "indices") {
			return a.At.Node, i
		}
	}
	return syntax.NoNode, -1
}

// implHandles reports whether the backend send impl tests the length of
// the parameter the indices bind (to skip, refuse or conclude an empty
// chunk itself).
func (c *checker) implHandles(site pymodel.CallSite, impl pymodel.FuncRef, ai int) bool {
	cal := pymodel.Callee{Func: pymodel.NoFunc}
	for _, k := range c.ix.Callees(site) {
		if k.Func == impl {
			cal = k
		}
	}
	if !cal.Func.Valid() {
		// Found by name: bind like a method call on an instance.
		cal = pymodel.Callee{Kind: pymodel.CallTyped, Func: impl}
	}
	bind := c.ix.BindArgs(site, cal)
	if ai >= len(bind) || bind[ai] < 0 {
		return false
	}
	f := c.ix.Func(impl)
	p := f.Params[bind[ai]].Name
	fl := c.flowOf(impl)
	if fl == nil {
		return false
	}
	t := fl.tree
	body := t.Field(f.Def, syntax.FBody)
	if body == syntax.NoNode {
		return false
	}
	return looksAtLength(t, body, p)
}

func (c *checker) report(fl *flow, arg syntax.NodeID, call *pymodel.Call, o *origin, unchecked []pymodel.FuncRef) {
	t := fl.tree
	v := clip(t.Text(t.Unparen(arg)), 40)
	msg := fmt.Sprintf("`%s` can be empty here (%s), and `%s(%s)` sends it anyway: an empty chunk moves no KV "+
		"and posts no completion, and nothing concludes the request, so the decode side waits for it until its "+
		"timeout. Test its length first: skip an empty chunk that is not the last, and on the last one send only "+
		"the metadata or mark the request Success (record %s)",
		v, o.why, clip(call.Callee(), 50), v, Record)
	related := append([]analyzer.Related(nil), o.related...)
	for _, impl := range unchecked {
		f := c.ix.Func(impl)
		related = append(related, analyzer.Related{Path: c.ix.Files[impl.File].Path, Line: int(f.NameAt.Line),
			Column: int(f.NameAt.Col), Message: fmt.Sprintf("`%s` does not look at the length of what it sends", f.QualName)})
	}
	c.pass.ReportNode(arg, msg, related...)
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

package kvfail

import (
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules/sendpath"
)

// classifier decides whether a source's failure depends on the request
// being served, from the names its condition reads:
//   - a local of the function (data received, looked up, computed) or,
//     for a raise, a parameter: the request's data;
//   - `self.x` of a sender or receiver: one object per request, so its
//     state is the request's (but `self.kv_mgr.x` is the manager's);
//   - `self.x` of a manager or server, module names, constants,
//     builtins: the process's configuration and shared state.
//
// A condition that reads only the last kind fails for every request or
// for none. An assert that reads only parameters states what its callers
// must pass (a contract): a failure there is a bug of the calling code,
// which the first request shows, not one request's edge case.
type classifier struct {
	t      *syntax.Tree
	def    syntax.NodeID
	self   string
	perReq bool // self is a sender or receiver: one object per request
	params map[string]bool
	// locals maps each local name to its bindings: the assigned values of
	// plain assignments, NoNode for any other binding (loop and with
	// targets, unpacking, except names), which counts as the request's.
	locals map[string][]syntax.NodeID
	dep    map[string]int8 // memo of localDepends: 1 yes, -1 no, 0 unknown
	// config are the parameters of fn that every project caller binds to
	// configuration: its own manager's attributes (`self.kv_args`),
	// constants, or the default.
	config map[string]bool
}

func newClassifier(paths *sendpath.Paths, ta *taint, fn pymodel.FuncRef, t *syntax.Tree, visiting []pymodel.FuncRef) *classifier {
	ix := paths.Index()
	c := &classifier{t: t, def: ix.Func(fn).Def, params: map[string]bool{},
		locals: map[string][]syntax.NodeID{}, dep: map[string]int8{}}
	self, cls := ix.SelfOf(fn)
	c.self = self
	c.perReq = cls.Valid() && paths.Scope().SchedulerClass(cls)
	// Parameters of fn and of the functions it is nested in (closures read
	// them as the request's data too).
	for g := fn.Func; g >= 0; g = ix.Summary(fn.File).Functions[g].Parent {
		for _, p := range ix.Summary(fn.File).Functions[g].Params {
			if p.Name != self {
				c.params[p.Name] = true
			}
		}
	}
	c.config = ta.configParams(fn, visiting)
	for n := range t.OwnScope(c.def) {
		if t.Kind(n) != syntax.Identifier || t.IsLoad(n) || c.params[t.Text(n)] || t.Text(n) == self {
			continue
		}
		value := syntax.NoNode
		if p := t.Parent(n); p != syntax.NoNode && t.Kind(p) == syntax.Assignment && t.FieldOf(n) == syntax.FLeft {
			value = t.Field(p, syntax.FRight)
		}
		if t.FieldOf(n) == syntax.FAttribute || t.Kind(t.Parent(n)) == syntax.KeywordArgument && t.FieldOf(n) == syntax.FName {
			continue // `x.name`, `f(name=...)`: not a binding
		}
		c.locals[t.Text(n)] = append(c.locals[t.Text(n)], value)
	}
	return c
}

// localDepends reports whether a local holds the request's data: one of
// its bindings is not a plain assignment, or assigns a value that reads
// the request's data or that a call other than a builtin returns (data
// received, looked up, computed elsewhere). `handler = self._handler` is
// the manager's state under another name.
func (c *classifier) localDepends(name string) bool {
	switch c.dep[name] {
	case 1:
		return true
	case -1:
		return false
	}
	c.dep[name] = -1 // a cycle of locals adds nothing
	for _, v := range c.locals[name] {
		if v == syntax.NoNode || c.reads(v).any() || c.callsOut(v) {
			c.dep[name] = 1
			return true
		}
	}
	return false
}

// callsOut reports a call in the expression at n that brings in data
// from elsewhere: a method of an object (`self.sock.recv_multipart()`,
// `self.kv_mgr.check_status(room)`, `q.get()`), or a module function given
// the request's data. A module function or constructor given only
// constants (`socket.socket(AF_INET, SOCK_DGRAM)`) and the builtins that
// convert or measure do not.
func (c *classifier) callsOut(n syntax.NodeID) bool {
	t := c.t
	end := t.SubtreeEnd(n)
	for m := n; m < end; m++ {
		if t.Kind(m) != syntax.Call {
			continue
		}
		fn := t.Field(m, syntax.FFunction)
		if fn == syntax.NoNode {
			return true
		}
		if quietBuiltins[t.Text(fn)] {
			continue
		}
		root := fn
		for t.Kind(root) == syntax.Attribute {
			root = t.Field(root, syntax.FObject)
		}
		if t.Kind(root) == syntax.Identifier && root != fn {
			name := t.Text(root)
			if name == c.self || c.params[name] || len(c.locals[name]) > 0 {
				return true // a method of an object
			}
		}
		if args := t.Field(m, syntax.FArguments); args != syntax.NoNode && c.reads(args).any() {
			return true
		}
	}
	return false
}

// quietBuiltins only convert, measure or test their arguments.
var quietBuiltins = map[string]bool{
	"len": true, "int": true, "str": true, "bool": true, "float": true, "isinstance": true, "hasattr": true,
	"getattr": true, "min": true, "max": true, "abs": true, "list": true, "tuple": true, "dict": true, "set": true,
	"sorted": true, "any": true, "all": true, "range": true, "enumerate": true, "zip": true, "type": true,
}

// dependence is what a condition reads.
type dependence struct {
	local, param, requestSelf bool
}

func (d dependence) any() bool { return d.local || d.param || d.requestSelf }

// reads classifies the names read in the expression at n.
func (c *classifier) reads(n syntax.NodeID) dependence {
	var d dependence
	t := c.t
	end := t.SubtreeEnd(n)
	for m := n; m < end; m++ {
		switch t.Kind(m) {
		case syntax.Lambda:
			m = t.SubtreeEnd(m) - 1
			continue
		case syntax.Identifier:
		default:
			continue
		}
		if !t.IsLoad(m) {
			continue
		}
		name := t.Text(m)
		switch {
		case name == c.self && c.self != "":
			if c.perReq && !c.managerPath(m) {
				d.requestSelf = true
			}
		case c.params[name]:
			d.param = d.param || !c.config[name]
		case len(c.locals[name]) > 0:
			d.local = d.local || c.localDepends(name)
		}
	}
	return d
}

// managerPath reports `self.kv_mgr...` (any attribute of self that holds
// another KV object: its name says manager) at identifier self.
func (c *classifier) managerPath(self syntax.NodeID) bool {
	t := c.t
	p := t.Parent(self)
	if p == syntax.NoNode || t.Kind(p) != syntax.Attribute {
		return false
	}
	attr := t.Text(t.Field(p, syntax.FAttribute))
	return strings.Contains(attr, "mgr") || strings.Contains(attr, "manager")
}

// raiseDepends: the tests that lead to the raise (its enclosing if and
// elif tests in the function, the earlier tests of its if chain) read the
// request's data; a raise in an except clause passes on a failure of the
// try body, which depends on the request; an unconditional raise runs
// whenever the function is called, which its callers decide.
func (c *classifier) raiseDepends(n syntax.NodeID) bool {
	t := c.t
	conds := 0
	var blocks [][2]syntax.NodeID // (block, child on the way) for early exits
	for m := n; m != c.def && m != syntax.NoNode; m = t.Parent(m) {
		p := t.Parent(m)
		if p == syntax.NoNode {
			break
		}
		if t.Kind(p) == syntax.Block {
			blocks = append(blocks, [2]syntax.NodeID{p, m})
		}
		switch t.Kind(p) {
		case syntax.ExceptClause, syntax.ExceptGroupClause:
			// Passing on the try body's failure: the request's when the
			// body reads the request's data, unless only the
			// configuration decided (`if not hasattr(self.engine, ...)`).
			if conds > 0 {
				return false
			}
			try := t.Parent(p)
			body := syntax.NoNode
			if try != syntax.NoNode {
				body = t.Field(try, syntax.FBody)
			}
			return body == syntax.NoNode || c.reads(body).any()
		case syntax.IfStatement, syntax.ElifClause, syntax.ElseClause, syntax.WhileStatement:
			for _, test := range c.testsBefore(p, m) {
				conds++
				if c.reads(test).any() {
					return true
				}
			}
		case syntax.FunctionDefinition, syntax.Lambda, syntax.ClassDefinition:
			return c.unconditional(conds, blocks)
		}
	}
	return c.unconditional(conds, blocks)
}

// unconditional decides a raise that no enclosing test guards: it runs
// when the early exits before it did not (`if total > 0: return total`
// ... `raise`), so those tests are what triggers it; with none, whoever
// calls the function decides, and that is the request.
func (c *classifier) unconditional(conds int, blocks [][2]syntax.NodeID) bool {
	if conds > 0 {
		return false
	}
	exits := 0
	for _, b := range blocks {
		for _, test := range c.earlyExitTests(b[0], b[1]) {
			exits++
			if c.reads(test).any() {
				return true
			}
		}
	}
	return exits == 0
}

// earlyExitTests are the tests of the `if` statements before m in block
// whose body always leaves it (returns, raises, continues or breaks) and
// that have no elif or else: m runs only when each of them was false.
func (c *classifier) earlyExitTests(block, m syntax.NodeID) []syntax.NodeID {
	t := c.t
	var out []syntax.NodeID
	for st := range t.NamedChildren(block) {
		if st == m {
			break
		}
		if t.Kind(st) != syntax.IfStatement || t.NamedChild(st, 2) != syntax.NoNode {
			continue // elif or else clauses follow the consequence
		}
		body := t.Field(st, syntax.FConsequence)
		if body == syntax.NoNode || !leavesBlock(t, body) {
			continue
		}
		if cond := t.Field(st, syntax.FCondition); cond != syntax.NoNode {
			out = append(out, cond)
		}
	}
	return out
}

// leavesBlock reports a block whose last statement returns, raises,
// continues or breaks.
func leavesBlock(t *syntax.Tree, block syntax.NodeID) bool {
	last := syntax.NoNode
	for st := range t.NamedChildren(block) {
		last = st
	}
	switch t.Kind(last) {
	case syntax.ReturnStatement, syntax.RaiseStatement, syntax.ContinueStatement, syntax.BreakStatement:
		return true
	}
	return false
}

// testsBefore returns the tests evaluated before control reaches child m of
// statement p: an if's (or elif's) own test when m is its consequence, and
// every earlier test of the chain for an elif or else.
func (c *classifier) testsBefore(p, m syntax.NodeID) []syntax.NodeID {
	t := c.t
	var out []syntax.NodeID
	switch t.Kind(p) {
	case syntax.IfStatement, syntax.WhileStatement:
		if cond := t.Field(p, syntax.FCondition); cond != syntax.NoNode && cond != m {
			out = append(out, cond)
		}
	case syntax.ElifClause, syntax.ElseClause:
		if t.Kind(p) == syntax.ElifClause {
			out = append(out, t.Field(p, syntax.FCondition))
		}
		stmt := t.Parent(p)
		if stmt != syntax.NoNode && t.Kind(stmt) == syntax.IfStatement {
			out = append(out, t.Field(stmt, syntax.FCondition))
			for ch := range t.NamedChildren(stmt) {
				if ch == p {
					break
				}
				if t.Kind(ch) == syntax.ElifClause {
					out = append(out, t.Field(ch, syntax.FCondition))
				}
			}
		}
	}
	return out
}

// callDepends: a call's arguments carry the request's data (a call with
// none, such as a socket's recv, fails for the socket, not a request).
func (c *classifier) callDepends(call syntax.NodeID) bool {
	args := c.t.Field(call, syntax.FArguments)
	return args != syntax.NoNode && c.reads(args).any()
}

// assertDepends: the test reads a local, or a sender's or receiver's own
// state; parameters alone make a contract (see classifier).
func (c *classifier) assertDepends(test syntax.NodeID) bool {
	if test == syntax.NoNode {
		return false
	}
	d := c.reads(test)
	return d.local || d.requestSelf
}

// keyDepends: the key of a table source is the request's (a local, a
// parameter, a sender's or receiver's own attribute).
func (c *classifier) keyDepends(s *Source) bool {
	if s.keyNode != syntax.NoNode {
		d := c.reads(s.keyNode)
		return d.any()
	}
	root, _, _ := strings.Cut(string(s.Key), ".")
	root, _, _ = strings.Cut(root, "[")
	switch {
	case root == c.self:
		return c.perReq
	case c.params[root]:
		return !c.config[root]
	case len(c.locals[root]) > 0:
		return c.localDepends(root)
	}
	return false
}

// taint decides which parameters of a function carry the request's data:
// a parameter is configuration when every project call binds it to
// configuration (a constant, the default, a manager's or server's own
// attribute, or a parameter or local of the caller that is configuration
// in turn), and the request's otherwise. Only callers on KV paths count;
// a function none of them calls (an entry) has request parameters. Shared by the
// workers of one analysis; a result is computed at most a few times.
type taint struct {
	paths *sendpath.Paths
	mu    sync.Mutex
	memo  map[pymodel.FuncRef]map[string]bool // the configuration parameters
}

func newTaint(paths *sendpath.Paths) *taint {
	return &taint{paths: paths, memo: map[pymodel.FuncRef]map[string]bool{}}
}

// maxTaintDepth bounds the callers followed up from one function.
const maxTaintDepth = 6

// configParams returns fn's configuration parameters. visiting holds the
// functions on the way up (a cycle counts as configuration: the caller
// outside it decides).
func (ta *taint) configParams(fn pymodel.FuncRef, visiting []pymodel.FuncRef) map[string]bool {
	ta.mu.Lock()
	m, ok := ta.memo[fn]
	ta.mu.Unlock()
	if ok {
		return m
	}
	m = ta.compute(fn, visiting)
	if len(visiting) == 0 { // a result that no cycle cut short
		ta.mu.Lock()
		ta.memo[fn] = m
		ta.mu.Unlock()
	}
	return m
}

func (ta *taint) compute(fn pymodel.FuncRef, visiting []pymodel.FuncRef) map[string]bool {
	ix := ta.paths.Index()
	params := ix.Func(fn).Params
	if e, ok := ta.paths.EntryOf(fn); slices.Contains(visiting, fn) || ok && e.Kind == sendpath.Queue {
		// A cycle: the caller outside it decides. A queue loop's
		// parameters are the scheduler's controls (which rids to check,
		// a PP consensus); its requests are the items it loops over.
		all := map[string]bool{}
		for _, p := range params {
			all[p.Name] = true
		}
		return all
	}
	var sites []pymodel.CallSite
	for _, site := range ix.Callers(fn) {
		// Callers off the KV paths do not bring data to this source.
		if call := ix.Call(site); call.Func >= 0 && ta.paths.OnKVPath(pymodel.FuncRef{File: site.File, Func: call.Func}) {
			sites = append(sites, site)
		}
	}
	if len(sites) == 0 || len(params) == 0 || len(visiting) >= maxTaintDepth {
		return nil
	}
	visiting = append(slices.Clip(visiting), fn)
	config := make([]bool, len(params))
	for i := range config {
		config[i] = true
	}
	for _, site := range sites {
		call := ix.Call(site)
		caller := pymodel.FuncRef{File: site.File, Func: call.Func}
		var cls *classifier // the caller's, built when an argument needs it
		for _, cal := range ix.Callees(site) {
			if cal.Func != fn {
				continue
			}
			bind := ix.BindArgs(site, cal)
			for ai, a := range ix.Args(site) {
				if ai >= len(bind) || bind[ai] < 0 || bind[ai] >= len(config) || !config[bind[ai]] {
					continue
				}
				if !ta.configArg(caller, a, visiting, &cls) {
					config[bind[ai]] = false
				}
			}
		}
	}
	out := map[string]bool{}
	for i, p := range params {
		if config[i] {
			out[p.Name] = true
		}
	}
	return out
}

// configArg reports an argument of a call in caller that is
// configuration (see taint).
func (ta *taint) configArg(caller pymodel.FuncRef, a pymodel.Arg, visiting []pymodel.FuncRef, cls **classifier) bool {
	switch a.Value {
	case pymodel.ValueLiteral, pymodel.ValueNone:
		return true
	}
	if a.Path == "" || a.Star != 0 {
		return false
	}
	ix := ta.paths.Index()
	self, class := ix.SelfOf(caller)
	root, rest, _ := strings.Cut(a.Path, ".")
	if self != "" && root == self {
		if !(class.Valid() && ta.paths.Scope().SchedulerClass(class)) {
			return true // a manager's or server's own attribute
		}
		head, _, _ := strings.Cut(rest, ".")
		return strings.Contains(head, "mgr") || strings.Contains(head, "manager")
	}
	if *cls == nil {
		f := ta.paths.File(caller.File)
		if f == nil {
			return false
		}
		*cls = newClassifier(ta.paths, ta, caller, f.Tree(), visiting)
	}
	c := *cls
	switch {
	case c.params[root]:
		return c.config[root]
	case len(c.locals[root]) > 0:
		return !c.localDepends(root)
	}
	return true // a module name: configuration
}

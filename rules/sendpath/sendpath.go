// Package sendpath finds the KV send paths of a project: the functions
// that start a transfer (entries) and everything they reach through the
// project call graph, with a shortest call chain to each, and (see
// facts.go) what is known at each function's entry on every send path.
// It is shared by the rules about send paths (SGL001, SGL003, SGL004,
// SGL010) so that they agree on what a send path is.
//
// Entries are:
//   - functions and methods whose name matches a pattern (default
//     DefaultPatterns: send_*, _send_*, transfer_worker,
//     add_transfer_request);
//   - thread and executor targets (pymodel.Index.Entries);
//   - functions named in Config.Entries.
//
// Stub bodies (docstring, pass, ..., raise NotImplementedError) and
// abstract methods are never entries: they run no code.
//
// Outermost entries. A name-matched entry reached from another entry
// (mooncake's send_kvcache from transfer_worker, say) is analysed in that
// entry's context: its entry facts come from its callers on send paths,
// and findings that belong to an entry ("this entry lets the error
// escape") are reported only at outermost entries. An entry is outermost
// when no other entry reaches it unless it reaches that entry back
// (mutually recursive entries are both outermost). Thread and executor
// targets are always outermost: they start with no caller's context.
//
// Known limits: callers that are not on a send path do not count (a
// name-matched entry also called from, say, a scheduler loop is analysed
// only in its send-path callers' context); reachability follows the
// static call graph of pymodel, so calls through attributes of unknown
// type, getattr or callbacks other than lambdas are not followed.
package sendpath

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/facts"
	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/rules/namepattern"
)

// DefaultPatterns are the entry name patterns when Config.Patterns is nil.
var DefaultPatterns = []string{"send_*", "_send_*", "transfer_worker", "add_transfer_request"}

// Config says which functions are entries. Rules embed its fields in
// their options (toml `entry-patterns`, `entries`).
type Config struct {
	// Patterns are shell patterns (path.Match syntax) on a function's own
	// name; nil means DefaultPatterns, an empty slice none.
	Patterns []string
	// Entries are functions to treat as entries, by qualified name or any
	// dotted tail of it ("MoriKVManager.send_kvcache" names
	// "sglang.srt.disaggregation.mori.conn.MoriKVManager.send_kvcache").
	Entries []string
	// WaitCalls are passed to facts.Options.WaitCalls (nil: its defaults).
	WaitCalls []string
	// Bases are the KV base classes, by qualified name or a dotted tail of
	// it; nil means DefaultBases. Only their project subclasses (the KV
	// classes) hold entries, besides Entries.
	Bases []string
	// SchedulerBases are the bases (among the KV bases) whose subclasses'
	// SchedulerMethods the scheduler calls once per request; nil means
	// DefaultSchedulerBases.
	SchedulerBases []string
	// SchedulerMethods are those methods' names; nil means
	// DefaultSchedulerMethods, an empty list none.
	SchedulerMethods []string
	// ServerBases are the bases of the KV bootstrap servers, whose route
	// handlers are entries; nil means DefaultServerBases.
	ServerBases []string
	// RaisingCalls are third-party APIs known to raise, by the attribute
	// holding the client and the method ("agent.transfer") or by module
	// function ("requests.get"), besides those KV code guards itself.
	RaisingCalls []string
	// RaisingMethods are the SchedulerMethods whose contract is to raise;
	// nil means DefaultRaisingMethods.
	RaisingMethods []string
	// QueueModules, QueueClasses and QueueMethods find the scheduler's
	// disaggregation queues: methods matching QueueMethods of classes
	// matching QueueClasses in modules matching QueueModules (shell
	// patterns; nil means the defaults, an empty QueueMethods none).
	QueueModules, QueueClasses, QueueMethods []string
}

func (c Config) bases() []string {
	if c.Bases == nil {
		return DefaultBases
	}
	return c.Bases
}

func (c Config) patterns() []string {
	if c.Patterns == nil {
		return DefaultPatterns
	}
	return c.Patterns
}

// key is the memo key of a configuration in Project.Shared.
type key struct {
	patterns, entries, waits, bases   string
	schedBases, schedMethods, servers string
	raising, raisingMethods           string
	queues                            string
	defaultWaits                      bool
}

func (c Config) key() key {
	j := func(xs []string) string { return strings.Join(xs, "\x00") }
	return key{j(c.patterns()), j(c.Entries), j(c.WaitCalls), j(c.bases()),
		j(c.schedulerBases()), j(c.schedulerMethods()), j(c.serverBases()), j(c.RaisingCalls), j(c.raisingMethods()),
		j(c.queueModules()) + "\x01" + j(c.queueClasses()) + "\x01" + j(c.queueMethods()), c.WaitCalls == nil}
}

// Kind says why a function is an entry.
type Kind uint8

const (
	NameMatch  Kind = iota + 1 // its name matches an entry pattern
	Thread                     // a threading.Thread/Timer/Process target
	Executor                   // submitted to an executor
	Configured                 // named in Config.Entries
	Scheduler                  // a sender's or receiver's method the scheduler calls (Config.SchedulerMethods)
	Handler                    // a route handler of a KV bootstrap server (Config.ServerBases)
	Queue                      // a disaggregation queue's loop the scheduler runs (Config.Queue*)
)

func (k Kind) String() string {
	switch k {
	case NameMatch:
		return "send entry"
	case Thread:
		return "thread target"
	case Executor:
		return "executor task"
	case Configured:
		return "configured entry"
	case Scheduler:
		return "scheduler call"
	case Handler:
		return "request handler"
	case Queue:
		return "queue loop"
	}
	return "entry"
}

// Caller says what runs the entry and so what an error escaping it stops:
// a thread (its loop), the scheduler's event loop, or the HTTP server
// answering one request.
func (k Kind) Caller() string {
	switch k {
	case Thread:
		return "thread"
	case Executor:
		return "executor"
	case Handler:
		return "HTTP handler"
	}
	return "scheduler"
}

// outer reports the kinds that the scheduler or the HTTP server call from
// outside KV code: always outermost, they never make the entries they
// reach inner ones (a send entry such as add_transfer_request keeps its
// findings where they are when a sender's send calls it).
func (k Kind) outer() bool { return k == Scheduler || k == Handler || k == Queue }

// UnreadFuture is what an error does in executor task `task` whose Future
// no send path reads: what names the error ("it", "the RuntimeError").
// The KV rules word this fate alike.
func UnreadFuture(task, what string) string {
	return fmt.Sprintf("executor task `%s` keeps %s in the Future `submit` returned, which no send path reads (`.result()`), and the request is never failed", task, what)
}

// Entry is one entry function.
type Entry struct {
	Func pymodel.FuncRef
	Kind Kind
	// Site is the Thread(...) or submit(...) call of Thread and Executor
	// entries; its File is -1 for the others.
	Site pymodel.CallSite
	// Outermost: no other entry reaches it (see the package comment).
	Outermost bool
}

// Reach is the entries of one project's send paths and what they reach
// (ReachOf), from the summaries alone. It is immutable once built and safe
// for concurrent reads.
type Reach struct {
	Project *analyzer.Project
	ix      *pymodel.Index
	entries []Entry
	entryOf map[pymodel.FuncRef]int // index into entries
	reach   *pymodel.Reach          // from the outermost entries
	// sendReach is reach without what only the queues reach: the send
	// paths, whose facts are computed up front (facts.go).
	sendReach *pymodel.Reach
	files     []*analyzer.File // by index file number
	scope     *Scope
	cfg       Config
	// queueOnly are the functions only the queues reach.
	queueOnly map[pymodel.FuncRef]bool
}

// Paths is the send-path view of one project: its Reach, with the guard
// facts and executor joins on top (OfProject). It is immutable once built
// and safe for concurrent reads.
type Paths struct {
	*Reach
	flow   *pymodel.Flow // see facts.go
	guards *pymodel.Guards
	joins  map[pymodel.FuncRef][]pymodel.CallSite // see future.go

	// Analyses under the entry facts of one call chain (see Escapes).
	pushMu sync.Mutex
	pushed map[pushKey]*facts.Result
}

// OfProject returns the send paths of a project under cfg, computed once
// per project and configuration (see Of).
func OfProject(proj *analyzer.Project, cfg Config) *Paths {
	v := proj.Shared(cfg.key(), func() any {
		// The entries and reach, shared with ReachOf; facts on top.
		p := &Paths{Reach: ReachOf(proj, cfg)}
		p.computeJoins() // reads trees: not in ReachOf, which demands call
		p.computeFacts(cfg.WaitCalls)
		return p
	})
	return v.(*Paths)
}

// reachKey memoises ReachOf apart from OfProject.
type reachKey struct{ key }

// ReachOf returns the entries and what they reach, without the guard
// facts and executor joins that OfProject adds (Facts, EntryFacts,
// Escapes and Joins are Paths' alone): enough to know which functions are
// on send paths, for a demand deciding what to load, at a fraction of the
// cost, from the summaries alone (no tree is read, as Demand.More must).
func ReachOf(proj *analyzer.Project, cfg Config) *Reach {
	v := proj.Shared(reachKey{cfg.key()}, func() any { return build(proj, cfg) })
	return v.(*Reach)
}

func build(proj *analyzer.Project, cfg Config) *Reach {
	p := &Reach{Project: proj, ix: proj.Index, entryOf: map[pymodel.FuncRef]int{}, cfg: cfg}
	ix := p.ix
	if ix == nil {
		ix = pymodel.NewIndex(nil)
		p.ix = ix
	}
	p.files = make([]*analyzer.File, len(ix.Files))
	for _, f := range proj.Files {
		if f.Model >= 0 && int(f.Model) < len(p.files) {
			p.files[f.Model] = f
		}
	}
	add := func(e Entry) {
		if !runs(ix, e.Func) {
			return
		}
		if i, ok := p.entryOf[e.Func]; ok {
			// Thread/executor outranks the name: it decides outermost; a
			// scheduler call outranks the name (send_metadata matches
			// send_*): the scheduler calls it.
			if e.Kind == Thread || e.Kind == Executor || e.Kind == Scheduler && p.entries[i].Kind == NameMatch {
				p.entries[i].Kind, p.entries[i].Site = e.Kind, e.Site
			}
			return
		}
		p.entryOf[e.Func] = len(p.entries)
		p.entries = append(p.entries, e)
	}
	p.scope = newScope(ix, cfg)
	noSite := pymodel.CallSite{File: -1, Call: -1}
	for _, e := range ix.Entries() {
		// Only the threads KV code starts, or that run KV code: a process
		// or thread target elsewhere moves no KV, whatever it calls.
		if !p.scope.Contains(e.Func) && !p.startedInScope(e.Site) {
			continue
		}
		k := Thread
		if e.Kind == pymodel.EntryExecutor {
			k = Executor
		}
		add(Entry{Func: e.Func, Kind: k, Site: e.Site})
	}
	pats, _ := namepattern.Compile(cfg.patterns()) // validated with the options; a bad one matches nothing
	for fi := range ix.Files {
		for _, fn := range ix.FuncsOf(int32(fi)) {
			f := ix.Func(fn)
			if f.Kind == pymodel.Lambda {
				continue
			}
			// A configured entry is what the user asked for: it makes the
			// entries it reaches inner, as a name-matched one does.
			switch {
			case namedIn(cfg.Entries, ix.FuncName(fn)) && !(pats.Match(f.Name) && p.scope.Contains(fn)):
				add(Entry{Func: fn, Kind: Configured, Site: noSite})
			case p.scope.schedulerMethod(fn):
				add(Entry{Func: fn, Kind: Scheduler, Site: noSite})
			case p.scope.routeHandler(fn):
				add(Entry{Func: fn, Kind: Handler, Site: noSite})
			case p.scope.queueMethod(fn):
				add(Entry{Func: fn, Kind: Queue, Site: noSite})
			case pats.Match(f.Name) && p.scope.Contains(fn):
				add(Entry{Func: fn, Kind: NameMatch, Site: noSite})
			}
		}
	}
	p.markOutermost()
	var starts, queueStarts []pymodel.Start
	for _, e := range p.entries {
		switch {
		case e.Kind == Queue:
			queueStarts = append(queueStarts, p.startsOf(e.Func)...)
		case e.Outermost:
			starts = append(starts, p.startsOf(e.Func)...)
		}
	}
	p.reach = ix.Reachable(starts, pymodel.ReachOptions{})
	p.sendReach = p.reach
	if len(queueStarts) > 0 {
		// The queues reach the whole scheduler; their paths stay in the
		// disaggregation modules, where the rules know what a request is.
		q := ix.Reachable(queueStarts, pymodel.ReachOptions{Within: p.scope.InQueueModule})
		p.queueOnly = map[pymodel.FuncRef]bool{}
		for _, fn := range q.Funcs() {
			if !p.reach.Reached(fn) {
				p.queueOnly[fn] = true
			}
		}
		p.reach = ix.Reachable(starts, pymodel.ReachOptions{})
		p.reach.Merge(q)
	}
	return p
}

// QueueOnly reports a function only the disaggregation queues reach.
func (p *Reach) QueueOnly(fn pymodel.FuncRef) bool { return p.queueOnly[fn] }

// startedInScope reports a Thread(...) or submit(...) call made by KV
// code.
func (p *Reach) startedInScope(site pymodel.CallSite) bool {
	if site.File < 0 {
		return false
	}
	caller := p.ix.Call(site).Func
	return caller >= 0 && p.scope.Contains(pymodel.FuncRef{File: site.File, Func: caller})
}

// Config is the configuration the paths were computed under.
func (p *Reach) Config() Config { return p.cfg }

// Scope is the KV transfer code the entries were chosen in.
func (p *Reach) Scope() *Scope { return p.scope }

// runs reports a function with a body that does something.
func runs(ix *pymodel.Index, fn pymodel.FuncRef) bool {
	f := ix.Func(fn)
	return !f.Stub && !f.Abstract
}

// namedIn reports whether qual is one of names or ends with ".name".
func namedIn(names []string, qual string) bool {
	for _, n := range names {
		if n != "" && (qual == n || strings.HasSuffix(qual, "."+n)) {
			return true
		}
	}
	return false
}

// startsOf is where a search from entry fn begins: its own class and every
// project subclass that inherits it unchanged, so that self-calls resolve
// as they do on real instances of those classes.
func (p *Reach) startsOf(fn pymodel.FuncRef) []pymodel.Start {
	ix := p.ix
	out := []pymodel.Start{{Func: fn, Self: pymodel.NoClass}}
	own := ix.Func(fn).SelfClass
	if own < 0 || ix.Func(fn).Kind == pymodel.Lambda {
		return out
	}
	name := ix.Func(fn).Name
	seen := map[pymodel.ClassRef]bool{}
	queue := []pymodel.ClassRef{{File: fn.File, Class: own}}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, sub := range ix.Subclasses(c) {
			if seen[sub] || ix.LookupMethod(sub, name).Func != fn {
				continue // an override starts its own entry
			}
			seen[sub] = true
			out = append(out, pymodel.Start{Func: fn, Self: sub})
			queue = append(queue, sub)
		}
	}
	return out
}

// markOutermost decides Entry.Outermost: thread and executor targets
// always; other entries unless another entry reaches them and is not
// reached back.
func (p *Reach) markOutermost() {
	n := len(p.entries)
	reaches := make([][]bool, n) // reaches[i][j]: entry i reaches entry j
	for i, e := range p.entries {
		reaches[i] = make([]bool, n)
		if e.Kind.outer() {
			continue // makes nothing inner
		}
		r := p.ix.Reachable(p.startsOf(e.Func), pymodel.ReachOptions{})
		for j, o := range p.entries {
			if j != i && r.Reached(o.Func) {
				reaches[i][j] = true
			}
		}
	}
	for j := range p.entries {
		e := &p.entries[j]
		if e.Kind == Thread || e.Kind == Executor || e.Kind.outer() {
			e.Outermost = true
			continue
		}
		e.Outermost = true
		for i := range p.entries {
			if reaches[i][j] && !reaches[j][i] {
				e.Outermost = false
				break
			}
		}
	}
}

// Entries lists every entry, thread and executor targets first (in file
// and call order), then name-matched and configured ones in file and
// definition order.
func (p *Reach) Entries() []Entry { return p.entries }

// Outermost lists the outermost entries, in Entries order.
func (p *Reach) Outermost() []Entry {
	var out []Entry
	for _, e := range p.entries {
		if e.Outermost {
			out = append(out, e)
		}
	}
	return out
}

// EntryOf returns the entry fn is, if it is one.
func (p *Reach) EntryOf(fn pymodel.FuncRef) (Entry, bool) {
	if i, ok := p.entryOf[fn]; ok {
		return p.entries[i], true
	}
	return Entry{}, false
}

// OnPath reports whether fn runs on a send path: it is an outermost entry
// or reached from one.
//
// The functions only the disaggregation queues reach are not on send
// paths: the send-path rules (SGL001-SGL004) know nothing of the
// scheduler's queues; the failure-confinement rules ask OnKVPath.
func (p *Reach) OnPath(fn pymodel.FuncRef) bool { return p.reach.Reached(fn) && !p.queueOnly[fn] }

// OnKVPath reports whether fn runs on a KV path of any entry, the
// disaggregation queues' included.
func (p *Reach) OnKVPath(fn pymodel.FuncRef) bool { return p.reach.Reached(fn) }

// Funcs lists the functions on send paths, breadth first from the
// outermost entries.
func (p *Reach) Funcs() []pymodel.FuncRef { return p.reach.Funcs() }

// Chain returns a shortest call chain from an outermost entry to fn (the
// entry first, with Site.File -1), nil when fn is not on a send path.
func (p *Reach) Chain(fn pymodel.FuncRef) []pymodel.Step { return p.reach.Chain(fn) }

// SendCallers returns the call sites into fn made by functions on send
// paths (virtual ones included), in index order. An outermost entry's
// callers are not part of its send paths: it has none here.
func (p *Reach) SendCallers(fn pymodel.FuncRef) []pymodel.CallSite {
	if e, ok := p.EntryOf(fn); ok && e.Outermost {
		return nil
	}
	var out []pymodel.CallSite
	for _, site := range p.ix.Callers(fn) {
		caller := pymodel.FuncRef{File: site.File, Func: p.ix.Call(site).Func}
		if caller.Func >= 0 && p.OnKVPath(caller) && !slices.Contains(out, site) {
			out = append(out, site)
		}
	}
	return out
}

// File returns the loaded file of index file number fi (nil if the index
// holds a file the project did not load).
func (p *Reach) File(fi int32) *analyzer.File {
	if fi < 0 || int(fi) >= len(p.files) {
		return nil
	}
	return p.files[fi]
}

// Index is the project model the paths were computed on.
func (p *Reach) Index() *pymodel.Index { return p.ix }

package sendpath

import (
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/rules/namepattern"
)

// DefaultBases are the KV base classes when Config.Bases is nil: the
// abstract manager, sender and receiver that every sglang transfer
// backend (mooncake, nixl, mori, ascend, fake, ...) derives from, directly
// or through the common classes. The bootstrap server is not one: it
// hands out addresses and moves no KV.
var DefaultBases = []string{"BaseKVManager", "BaseKVSender", "BaseKVReceiver"}

// DefaultSchedulerBases are the KV bases whose subclasses' methods the
// scheduler calls for each request (DefaultSchedulerMethods).
var DefaultSchedulerBases = []string{"BaseKVSender", "BaseKVReceiver"}

// DefaultSchedulerMethods are the methods of senders and receivers that
// sglang's prefill and decode schedulers call from their event loop: an
// error escaping one of them escapes into the scheduler.
var DefaultSchedulerMethods = []string{"init", "send", "send_metadata", "poll", "abort", "clear", "failure_exception"}

// DefaultRaisingMethods are scheduler methods whose contract is to raise:
// sglang's schedulers call failure_exception inside a handler to get a
// failed request's error as an exception.
var DefaultRaisingMethods = []string{"failure_exception"}

// DefaultServerBases are the bases of the KV bootstrap servers: the HTTP
// servers that tell a decode rank where its prefill peers are. Their route
// handlers answer one HTTP request each.
var DefaultServerBases = []string{"BaseKVBootstrapServer"}

// DefaultQueueModules, DefaultQueueClasses and DefaultQueueMethods find
// sglang's disaggregation queues: the bootstrap, prealloc, inflight and
// transfer queues and the schedulers' disaggregation mixins, whose pop_*
// and process_* methods loop over requests in the scheduler's event loop.
var (
	DefaultQueueModules = []string{"*.disaggregation.*"}
	DefaultQueueClasses = []string{"*Queue", "*QueueMixin", "SchedulerDisaggregation*Mixin"}
	DefaultQueueMethods = []string{"pop_*", "process_*"}
)

func (c Config) queueModules() []string {
	if c.QueueModules == nil {
		return DefaultQueueModules
	}
	return c.QueueModules
}

func (c Config) queueClasses() []string {
	if c.QueueClasses == nil {
		return DefaultQueueClasses
	}
	return c.QueueClasses
}

func (c Config) queueMethods() []string {
	if c.QueueMethods == nil {
		return DefaultQueueMethods
	}
	return c.QueueMethods
}

func (c Config) schedulerBases() []string {
	if c.SchedulerBases == nil {
		return DefaultSchedulerBases
	}
	return c.SchedulerBases
}

func (c Config) schedulerMethods() []string {
	if c.SchedulerMethods == nil {
		return DefaultSchedulerMethods
	}
	return c.SchedulerMethods
}

func (c Config) raisingMethods() []string {
	if c.RaisingMethods == nil {
		return DefaultRaisingMethods
	}
	return c.RaisingMethods
}

// RaisesByContract reports an entry whose contract is to raise
// (Config.RaisingMethods): what escapes it is the request's failure as
// the scheduler asked for it, never a finding.
func (p *Paths) RaisesByContract(e Entry) bool {
	return e.Kind == Scheduler && slices.Contains(p.cfg.raisingMethods(), p.Index().Func(e.Func).Name)
}

func (c Config) serverBases() []string {
	if c.ServerBases == nil {
		return DefaultServerBases
	}
	return c.ServerBases
}

// Scope is a project's KV transfer code: the KV classes, the project
// classes that derive (in any file, through any depth) from one of the
// configured bases, and the functions that belong to them (their methods
// and the functions and lambdas nested in those).
type Scope struct {
	ix *pymodel.Index
	// classes maps each KV class to the base that makes it one.
	classes map[pymodel.ClassRef]string
	// scheduled are the KV classes deriving from a scheduler base, and
	// methods the names the scheduler calls on them.
	scheduled map[pymodel.ClassRef]bool
	methods   []string
	// servers are the bootstrap server classes; handlers their methods
	// registered as routes.
	servers  map[pymodel.ClassRef]bool
	handlers map[pymodel.FuncRef]bool
	// queueModules are the files of modules matching Config.QueueModules;
	// queues the classes there matching Config.QueueClasses, and
	// queueMethods the method patterns.
	queueModules map[int32]bool
	queues       map[pymodel.ClassRef]bool
	queueMethods *namepattern.Set
}

// newScope finds the KV classes of ix. A base matches by qualified name or
// any dotted tail of it ("BaseKVManager" names
// "sglang.srt.disaggregation.base.conn.BaseKVManager"), whether it is a
// project class or one outside the project (an unresolved import counts
// by the name it is written with).
func newScope(ix *pymodel.Index, cfg Config) *Scope {
	s := &Scope{ix: ix, classes: map[pymodel.ClassRef]string{}, scheduled: map[pymodel.ClassRef]bool{},
		methods: cfg.schedulerMethods(), servers: map[pymodel.ClassRef]bool{}, handlers: map[pymodel.FuncRef]bool{}}
	bases, sched, servers := cfg.bases(), cfg.schedulerBases(), cfg.serverBases()
	for fi := range ix.Files {
		sum := ix.Summary(int32(fi))
		if sum == nil {
			continue
		}
		for ci := range sum.Classes {
			c := pymodel.ClassRef{File: int32(fi), Class: int32(ci)}
			for _, b := range ix.MRO(c) {
				if _, ok := s.classes[c]; !ok && namedIn(bases, b.Name) {
					s.classes[c] = b.Name
				}
				if namedIn(sched, b.Name) && namedIn(bases, b.Name) {
					s.scheduled[c] = true
				}
				if namedIn(servers, b.Name) {
					s.servers[c] = true
				}
			}
		}
	}
	s.findHandlers()
	s.findQueues(cfg)
	return s
}

// findQueues marks the modules and classes of the disaggregation queues.
func (s *Scope) findQueues(cfg Config) {
	ix := s.ix
	s.queueModules, s.queues = map[int32]bool{}, map[pymodel.ClassRef]bool{}
	mods, _ := namepattern.Compile(cfg.queueModules()) // validated with the options
	classes, _ := namepattern.Compile(cfg.queueClasses())
	s.queueMethods, _ = namepattern.Compile(cfg.queueMethods())
	for fi := range ix.Files {
		sum := ix.Summary(int32(fi))
		if sum == nil || !mods.Match(ix.Files[fi].Module) {
			continue
		}
		s.queueModules[int32(fi)] = true
		for ci := range sum.Classes {
			if classes.Match(sum.Classes[ci].Name) {
				s.queues[pymodel.ClassRef{File: int32(fi), Class: int32(ci)}] = true
			}
		}
	}
}

// queueMethod reports a loop method of a disaggregation queue.
func (s *Scope) queueMethod(fn pymodel.FuncRef) bool {
	f := s.ix.Func(fn)
	if f.Class < 0 || f.Kind != pymodel.Method || !s.queueMethods.Match(f.Name) {
		return false
	}
	return s.queues[pymodel.ClassRef{File: fn.File, Class: f.Class}]
}

// InQueueModule reports a function of a module the queues live in.
func (s *Scope) InQueueModule(fn pymodel.FuncRef) bool { return s.queueModules[fn.File] }

// findHandlers marks the methods of server classes that a method of the
// class or of a base registers as a route: passed as `self.m` to a call
// named add_route, add_get, add_post, ... (aiohttp) or add_api_route,
// get, post, ... (FastAPI, Starlette). The method is looked up on each
// server class, so that an override handles the route in its class.
func (s *Scope) findHandlers() {
	ix := s.ix
	registered := map[pymodel.ClassRef][]string{} // by the class whose method registers
	for c := range s.servers {
		for _, fn := range ix.FuncsOf(c.File) {
			if f := ix.Func(fn); f.Class != c.Class {
				continue
			}
			self, _ := ix.SelfOf(fn)
			if self == "" {
				continue
			}
			for _, site := range ix.CallsIn(fn) {
				if !routeCall(ix.Call(site).Name) {
					continue
				}
				for _, a := range ix.Args(site) {
					if name, ok := strings.CutPrefix(a.Path, self+"."); ok && !strings.Contains(name, ".") {
						registered[c] = append(registered[c], name)
					}
				}
			}
		}
	}
	for c := range s.servers {
		for _, b := range ix.MRO(c) {
			for _, name := range registered[b.Class] {
				if m := ix.LookupMethod(c, name).Func; m.Valid() {
					s.handlers[m] = true
				}
			}
		}
	}
}

// routeCall reports the name of a call that registers a route handler.
func routeCall(name string) bool {
	switch name {
	case "add_route", "add_get", "add_post", "add_put", "add_patch", "add_delete", "add_head",
		"add_api_route", "route", "get", "post", "put", "patch", "delete":
		return true
	}
	return false
}

// schedulerMethod reports a method the scheduler calls on a sender or
// receiver: one of the configured names, defined by a class deriving from
// a scheduler base.
func (s *Scope) schedulerMethod(fn pymodel.FuncRef) bool {
	f := s.ix.Func(fn)
	if f.Class < 0 || f.Kind != pymodel.Method || !slices.Contains(s.methods, f.Name) {
		return false
	}
	return s.scheduled[pymodel.ClassRef{File: fn.File, Class: f.Class}]
}

// routeHandler reports a route handler of a bootstrap server class.
func (s *Scope) routeHandler(fn pymodel.FuncRef) bool { return s.handlers[fn] }

// SchedulerClass reports a class deriving from a scheduler base (a
// sender or receiver: one object per request).
func (s *Scope) SchedulerClass(c pymodel.ClassRef) bool { return s.scheduled[c] }

// IsServerClass reports a KV bootstrap server class (Config.ServerBases).
func (s *Scope) IsServerClass(c pymodel.ClassRef) bool { return s.servers[c] }

// InServer reports whether fn belongs to a bootstrap server class.
func (s *Scope) InServer(fn pymodel.FuncRef) bool {
	c, ok := s.Owner(fn)
	return ok && s.servers[c]
}

// IsKVClass reports whether c derives from a KV base (or is one).
func (s *Scope) IsKVClass(c pymodel.ClassRef) bool {
	_, ok := s.classes[c]
	return ok
}

// Base returns the configured base that makes c a KV class, "" if none.
func (s *Scope) Base(c pymodel.ClassRef) string { return s.classes[c] }

// Owner returns the class fn belongs to: the class whose body defines it,
// or the one defining the method it is nested in. False for module-level
// functions and what they nest.
func (s *Scope) Owner(fn pymodel.FuncRef) (pymodel.ClassRef, bool) {
	sum := s.ix.Summary(fn.File)
	if sum == nil {
		return pymodel.NoClass, false
	}
	for g := fn.Func; g >= 0 && int(g) < len(sum.Functions); g = sum.Functions[g].Parent {
		if c := sum.Functions[g].Class; c >= 0 {
			return pymodel.ClassRef{File: fn.File, Class: c}, true
		}
	}
	return pymodel.NoClass, false
}

// Contains reports whether fn is KV transfer code: it belongs to a KV
// class.
func (s *Scope) Contains(fn pymodel.FuncRef) bool {
	c, ok := s.Owner(fn)
	return ok && s.IsKVClass(c)
}

// Classes lists the KV classes in index order.
func (s *Scope) Classes() []pymodel.ClassRef {
	out := make([]pymodel.ClassRef, 0, len(s.classes))
	for c := range s.classes {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b pymodel.ClassRef) int {
		if a.File != b.File {
			return int(a.File - b.File)
		}
		return int(a.Class - b.Class)
	})
	return out
}

// Len is the number of KV classes.
func (s *Scope) Len() int { return len(s.classes) }

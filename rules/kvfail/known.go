package kvfail

import (
	"strings"

	"github.com/sglint/sglint/analyzer/pymodel"
	"github.com/sglint/sglint/analyzer/pyname"
	"github.com/sglint/sglint/rules/sendpath"
)

// knownCalls are the third-party APIs the project shows raising, by
// apiKey.
type knownCalls map[string]bool

// knownRaising finds the third-party APIs configured as raising
// ([tool.sglint.kv-scope] raising-calls) and those that KV code itself
// expects to raise: a call of the API stands in a try whose body makes at most
// maxTryCalls such calls, in a function of a KV class or server. That one
// caller guards it is the project's own word that it raises; every other
// call of the same API on a KV path is then a source. An API nobody
// guards is not assumed to raise: a linter cannot know what a C extension
// does.
func knownRaising(paths *sendpath.Paths) knownCalls {
	ix := paths.Index()
	scope := paths.Scope()
	out := knownCalls{}
	for _, k := range paths.Config().RaisingCalls {
		out[k] = true
	}
	for fi := range ix.Files {
		for _, fn := range ix.FuncsOf(int32(fi)) {
			if !scope.Contains(fn) && !scope.InServer(fn) {
				continue
			}
			byTry := map[int32][]string{}
			for _, site := range ix.CallsIn(fn) {
				c := ix.Call(site)
				if c.Try < 0 || len(ix.Callees(site)) > 0 {
					continue
				}
				if key, ok := apiKey(ix, fn, c); ok {
					byTry[c.Try] = append(byTry[c.Try], key)
				}
			}
			for _, keys := range byTry {
				if len(keys) <= maxTryCalls {
					for _, k := range keys {
						out[k] = true
					}
				}
			}
		}
	}
	return out
}

// maxTryCalls bounds the third-party calls of a try body whose handler
// counts as evidence for each of them: a handler around a long block says
// little about any one call.
const maxTryCalls = 2

// apiKey names the API a call with no project callee goes to: the
// attribute holding the client and the method (`self.agent.transfer` and
// `self.kv_mgr.agent.transfer` are both "agent.transfer"), or the
// module function (`requests.get`). Calls on locals, and on loggers,
// locks and the standard library's quiet modules, have none.
func apiKey(ix *pymodel.Index, fn pymodel.FuncRef, c *pymodel.Call) (string, bool) {
	if c.Kind != pymodel.RefAttr || c.Recv == "" || c.Name == "" {
		return "", false
	}
	self, _ := ix.SelfOf(fn)
	root, _, _ := strings.Cut(c.Recv, ".")
	var key string
	switch {
	case self != "" && root == self && c.Recv != self:
		if !externalClient(ix, fn, c.Recv) {
			return "", false // a dict, a list, a project object: not a client
		}
		key = pyname.Last(c.Recv) + "." + c.Name
	default:
		sym := ix.Resolve(fn.File, fn.Func, c.Recv)
		if sym.Kind != pymodel.SymModule && sym.Kind != pymodel.SymExternal || sym.File >= 0 {
			return "", false
		}
		key = sym.Name + "." + c.Name
	}
	head := strings.ToLower(pyname.Last(pyname.Parent(key)))
	for _, quiet := range quietReceivers {
		if strings.Contains(head, quiet) {
			return "", false
		}
	}
	top, _, _ := strings.Cut(key, ".")
	if quietModules[top] {
		return "", false
	}
	return key, true
}

// quietReceivers are receiver names whose calls no rule should call
// raising: logging, locks, events, queues' bookkeeping.
var quietReceivers = []string{"log", "lock", "event", "cond"}

// quietModules are standard modules whose functions a try around them
// guards for reasons other than a failed request.
var quietModules = map[string]bool{
	"time": true, "threading": true, "os": true, "sys": true, "json": true, "struct": true, "math": true,
	"random": true, "copy": true, "dataclasses": true, "collections": true, "itertools": true,
	"functools": true, "typing": true, "logging": true, "np": true, "numpy": true, "torch": true,
	"pickle": true, "base64": true, "hashlib": true, "uuid": true, "asyncio": true,
}

// externalClient reports an attribute of self (or of an object self
// holds) that every assignment sets to what a call outside the project
// returns: `self.agent = nixl_agent(...)`, `self.session = requests.Session()`.
func externalClient(ix *pymodel.Index, fn pymodel.FuncRef, recv string) bool {
	self, c := ix.SelfOf(fn)
	attr := strings.TrimPrefix(recv, self+".")
	if strings.Contains(attr, ".") {
		var ok bool
		if c, attr, ok = ix.OwnerOf(fn, recv); !ok {
			return false
		}
	}
	if !c.Valid() {
		return false
	}
	info := ix.Attr(c, attr)
	if len(info.Assigns) == 0 {
		return false
	}
	for _, a := range info.Assigns {
		if a.Use.File < 0 {
			return false // a class-body value
		}
		u := ix.Use(a.Use)
		if u.Value != pymodel.ValueCall || u.Ref == "" {
			return false
		}
		sym := ix.Resolve(a.Use.File, u.Func, u.Ref)
		if sym.Kind != pymodel.SymExternal && (sym.Kind != pymodel.SymModule || sym.File >= 0) {
			return false
		}
	}
	return true
}

package sendpath

import "github.com/sglint/sglint/analyzer/pymodel"

// socketReads are the calls with which a KV thread waits for its next
// message from a peer (zmq and plain sockets).
var socketReads = map[string]bool{
	"recv_multipart": true, "recv": true, "recv_pyobj": true, "recv_string": true,
	"recv_json": true, "recvfrom": true, "recv_into": true,
}

// ThreadLoss names KV thread fn and says what stops when it ends, in its
// own terms: a transfer thread that takes requests from a queue leaves
// them queued; a thread that reads a socket leaves its peers' messages
// unread (the bootstrap and status threads); any other stops serving later
// requests.
func (p *Reach) ThreadLoss(fn pymodel.FuncRef) (noun, loss string) {
	queue := false
	for _, site := range p.ix.CallsIn(fn) {
		c := p.ix.Call(site)
		if c.Kind != pymodel.RefAttr {
			continue
		}
		if socketReads[c.Name] {
			return "KV thread", "no later message on its socket is handled, so every peer and request waiting on one stalls"
		}
		if c.Name == "get" && !positional(p.ix.Args(site)) {
			queue = true // q.get(), q.get(timeout=1); not d.get(k)
		}
	}
	if queue {
		return "transfer thread", "every request queued on it stalls"
	}
	return "transfer thread", "every later request it would serve stalls"
}

func positional(args []pymodel.Arg) bool {
	for _, a := range args {
		if a.Keyword == "" {
			return true
		}
	}
	return false
}

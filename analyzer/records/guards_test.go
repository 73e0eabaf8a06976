package records

import (
	"testing"

	"github.com/sglint/sglint/analyzer/facts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A record's guard fields are read with the Python parser: the facts their
// checks establish, and whether a handler confines the error (issue 30,
// item 3). The records here are written for the test.
func TestGuards(t *testing.T) {
	r := &Record{
		TypeGuard:       "def ring_ready(mgr) -> bool: return len(mgr.ring_descs) > 0",
		ValidationCode:  "peer = mgr.remote_rings.get(peer_id)\nassert peer is not None, 'unknown peer'\nif not peer.windows:\n    raise RuntimeError('no windows')\nassert peer.kind is not None",
		TryCatchPattern: "except RuntimeError as e:\n    if 'ring' in str(e):\n        forget(peer_id)\n        return",
	}
	gs := r.Guards()
	require.Len(t, gs, 3)
	words := func(g Guard) Guard { g.facts, g.aliases = nil, nil; return g }
	assert.Equal(t, Guard{Field: "typeGuard", Python: true, Checks: []string{"`mgr.ring_descs` is non-empty"}}, words(gs[0]))
	assert.Equal(t, Guard{Field: "validationCode", Python: true, Checks: []string{
		"`peer_id` is in `mgr.remote_rings`", "`peer.windows` is non-empty", "`peer.kind` is not None"}}, words(gs[1]))
	assert.Equal(t, Guard{Field: "tryCatchPattern", Python: true, Catches: "RuntimeError"}, words(gs[2]))

	// The state these checks name, for SGL010; the `.get` result `peer`
	// is a membership check, not state.
	assert.Equal(t, []Required{
		{Field: "typeGuard", State: "ring_descs", Kind: facts.Truthy, Path: "mgr.ring_descs"},
		{Field: "validationCode", State: "windows", Kind: facts.Truthy, Path: "peer.windows"},
		{Field: "validationCode", State: "kind", Kind: facts.NotNone, Path: "peer.kind"},
	}, r.Required())
	bound := &Record{ValidationCode: "handler = mgr._staging_handler\nassert handler is not None"}
	assert.Equal(t, []Required{{Field: "validationCode", State: "_staging_handler", Kind: facts.NotNone, Path: "mgr._staging_handler"}},
		bound.Required(), "a local read from the state stands for it")

	prose := &Record{TryCatchPattern: "catch RuntimeError 'ring wrapped'; wait for the reader rather than crashing",
		ValidationCode: "except KeyError:\n    raise"}
	gs = prose.Guards()
	require.Len(t, gs, 2)
	assert.Equal(t, Guard{Field: "validationCode", Python: false}, gs[0], "not a statement on its own")
	assert.Equal(t, Guard{Field: "tryCatchPattern", Python: false}, gs[1])

	again := &Record{TryCatchPattern: "except (KeyError, RuntimeError) as e:\n    log(e)\n    raise"}
	gs = again.Guards()
	require.Len(t, gs, 1)
	assert.True(t, gs[0].Reraises)
	assert.Equal(t, "(KeyError, RuntimeError)", gs[0].Catches)
	assert.Empty(t, (&Record{}).Guards())
}

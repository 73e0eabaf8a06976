package peerpublish

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/rules/sendpath"
)

const fixtures = "../../testdata/rules/sgl003"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

// runOn runs SGL003 on the fixtures with the kv-scope settings opts (nil:
// defaults).
func runOn(t *testing.T, opts *sendpath.ScopeOptions) []analyzer.Diagnostic {
	t.Helper()
	return analysistest.Findings(t, fixtures, analysistest.WithSection(sendpath.Section, opts), Rule)
}

func TestMessageAndRelated(t *testing.T) {
	d := analysistest.At(runOn(t, nil), "peers.py", 41)
	require.NotNil(t, d)
	assert.Equal(t, analyzer.Warning, d.Severity())
	assert.Equal(t, Record, d.Record)
	assert.Equal(t, "Registrar.add_peer_early", d.Function)
	assert.Equal(t, "`layout` is published before it is fully initialised: it goes into `self.peer_layouts`, "+
		"which send path `Registrar.transfer_worker` reads from another thread, and then "+
		"`self._prepare(layout)` still stores `dest_kind`, `segments` on it; a transfer in between, "+
		"or after that step raises, finds a half-built peer (record d0bf6111ca6909b6). "+
		"Prepare `layout` completely first and store it last, removing it again if a step fails", d.Message)
	var rel []string
	for _, r := range d.Related {
		rel = append(rel, fmt.Sprintf("%s:%d:%d %s", r.Path, r.Line, r.Column, r.Message))
	}
	assert.Equal(t, []string{
		"peers.py:43:9 initialised further here, after it is published",
		"peers.py:102:36 send path `Registrar.transfer_worker` reads the table",
	}, rel)
}

// A configured entry makes the table it reads a peer table on a send path.
func TestOptions(t *testing.T) {
	assert.False(t, analysistest.At(runOn(t, nil), "peers.py", 92) != nil, "debug_index is read only by describe")
	opts := sendpath.DefaultScopeOptions()
	opts.Entries = []string{"Registrar.describe"}
	assert.True(t, analysistest.At(runOn(t, opts), "peers.py", 92) != nil)
}

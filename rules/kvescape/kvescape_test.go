package kvescape

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/rules/sendpath"
)

const fixtures = "../../testdata/rules/sgl006"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

// An API configured as raising is a source wherever a KV path calls it;
// unconfigured and unguarded, it is not.
func TestConfiguredRaisingCalls(t *testing.T) {
	at := func(opts *sendpath.ScopeOptions) *analyzer.Diagnostic {
		ds := analysistest.Findings(t, fixtures, analysistest.WithSection(sendpath.Section, opts), Rule)
		return analysistest.At(ds, "configured.py", 20)
	}
	assert.Nil(t, at(nil))
	opts := sendpath.DefaultScopeOptions()
	opts.RaisingCalls = []string{"engine.submit"}
	d := at(opts)
	require.NotNil(t, d)
	assert.Contains(t, d.Message, "escapes scheduler call `EngineReceiver.send_metadata`")
	assert.Contains(t, d.Message, "`self.kv_mgr.engine.submit(self.room, pages)`")
}

package rules_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/records"
	"github.com/sglint/sglint/rules"
)

// A demand-driven run (the default) loads only the KV code and what it
// calls; its findings must be those of the full analysis (Options.Full),
// on every fixture project of the KV rules.
func TestDemandDrivenFindingsEqualFullAnalysis(t *testing.T) {
	set, err := records.Load(filepath.Join("..", "testdata", "records", "seed"), filepath.Join("..", "testdata", "example", "records"))
	require.NoError(t, err)
	dirs := []string{"sgl001", "sgl002", "sgl003", "sgl004", "sgl010", "scope"}
	for _, d := range dirs {
		t.Run(d, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", "rules", d)
			full := analysistest.Findings(t, dir, checker.Options{Records: set, Full: true}, rules.All()...)
			demand := analysistest.Findings(t, dir, checker.Options{Records: set}, rules.All()...)
			require.NotEmpty(t, full)
			assert.Equal(t, places(full), places(demand))
		})
	}
	// The demand really is one: the look-alikes in scope/managers are not
	// loaded.
	t.Run("loads less", func(t *testing.T) {
		dir := filepath.Join("..", "testdata", "rules", "scope")
		full := analysistest.RunWith(t, dir, checker.Options{Records: set, Full: true}, kvRules()...)
		demand := analysistest.RunWith(t, dir, checker.Options{Records: set}, kvRules()...)
		assert.Equal(t, 0, full.Stats.Scanned)
		assert.Equal(t, full.Stats.Files, demand.Stats.Scanned)
		assert.Less(t, demand.Stats.Files, full.Stats.Files)
		t.Logf("scope: %d of %d files loaded, in %d rounds", demand.Stats.Files, demand.Stats.Scanned, demand.Stats.Rounds)
	})
	t.Run("example", func(t *testing.T) {
		dir := filepath.Join("..", "testdata", "example")
		full := analysistest.Findings(t, dir, checker.Options{Records: set, Full: true}, rules.All()...)
		demand := analysistest.Findings(t, dir, checker.Options{Records: set}, rules.All()...)
		assert.Len(t, full, 8)
		assert.Equal(t, places(full), places(demand))
	})
}

func places(ds []analyzer.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path+":"+itoa(d.Start.Line)+":"+itoa(d.Start.Column)+" "+d.Rule.ID+" "+d.Message)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func kvRules() []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, id := range []string{"SGL001", "SGL002", "SGL003", "SGL004", "SGL010"} {
		out = append(out, rules.ByID(id))
	}
	return out
}

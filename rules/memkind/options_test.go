package memkind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	driver "github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/rules/sendpath"
)

const optionsSrc = `def send_kv(agent, table, peer):
    kind = table.get(peer)
    agent.post(peer, dst_mem_kind=kind)
    agent.post(peer, target_kind=kind)
`

// sendScope makes the module-level send_kv an entry.
var sendScope = map[string]any{sendpath.Section.Key: &sendpath.ScopeOptions{Entries: []string{"send_kv"}}}

func lines(res *driver.Result) []int {
	var out []int
	for _, d := range res.Diagnostics {
		out = append(out, d.Start.Line)
	}
	return out
}

func TestSinkParamsOption(t *testing.T) {
	in := []driver.Input{{Path: "send.py", Src: []byte(optionsSrc), Report: true}}
	res := driver.Run(in, driver.Options{Rules: []*analyzer.Rule{Rule}, Jobs: 1, SectionOptions: sendScope})
	assert.Equal(t, []int{3}, lines(res), "defaults: *mem_kind, *mem_kinds")

	res = driver.Run(in, driver.Options{Rules: []*analyzer.Rule{Rule}, Jobs: 1, SectionOptions: sendScope,
		RuleOptions: map[string]any{"SGL002": &Options{SinkParams: []string{"target_kind"}}}})
	assert.Equal(t, []int{4}, lines(res))

	res = driver.Run(in, driver.Options{Rules: []*analyzer.Rule{Rule}, Jobs: 1, SectionOptions: sendScope,
		RuleOptions: map[string]any{"SGL002": &Options{}}})
	assert.Empty(t, res.Diagnostics, "no patterns, no sinks")
}

func TestSinkParamsFromConfig(t *testing.T) {
	load := func(body string) (*config.Config, error) {
		file := filepath.Join(t.TempDir(), "pyproject.toml")
		require.NoError(t, os.WriteFile(file, []byte("[tool.sglint.rules.SGL002]\n"+body), 0o644))
		return config.Load(file, []*analyzer.Rule{Rule})
	}
	cfg, err := load(`sink-params = ["*_kind"]` + "\n")
	require.NoError(t, err)
	in := []driver.Input{{Path: "send.py", Src: []byte(optionsSrc), Report: true}}
	res := driver.Run(in, driver.Options{Rules: []*analyzer.Rule{Rule}, Jobs: 1, RuleOptions: cfg.RuleOptions, SectionOptions: sendScope})
	assert.Equal(t, []int{3, 4}, lines(res))

	_, err = load(`sink-params = ["[unclosed"]` + "\n")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a valid pattern")
	_, err = load(`sink-param = ["x"]` + "\n")
	require.Error(t, err, "unknown key")
}

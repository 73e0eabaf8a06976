package checker_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/analyzer/syntax"
)

type limitOptions struct {
	Word string `toml:"word"`
}

// wordRule reports every identifier equal to its configured word.
var wordRule = &analyzer.Rule{
	ID: "SGL990", Name: "word", Title: "t", Doc: "d",
	Options: func() any { return &limitOptions{Word: "default"} },
	Run: func(pass *analyzer.Pass) error {
		word := pass.Options().(*limitOptions).Word
		t := pass.File.Tree()
		for i := 0; i < t.Len(); i++ {
			if n := syntax.NodeID(i); t.Kind(n) == syntax.Identifier && t.TextIs(n, word) {
				pass.Reportf(n, "found %s", word)
			}
		}
		return nil
	},
}

func TestPassOptionsDefaultsAndConfigured(t *testing.T) {
	src := []byte("default = 1\r\nif True:\n    custom  =  2\n")
	in := []checker.Input{{Path: "a.py", Src: src, Report: true}}

	res := checker.Run(in, checker.Options{Rules: []*analyzer.Rule{wordRule}, Jobs: 1})
	require.Len(t, res.Diagnostics, 1)
	assert.Equal(t, 1, res.Diagnostics[0].Start.Line)
	assert.Equal(t, "default = 1", res.Diagnostics[0].LineText, "CR of a CRLF line is dropped")

	res = checker.Run(in, checker.Options{Rules: []*analyzer.Rule{wordRule}, Jobs: 1,
		RuleOptions: map[string]any{"SGL990": &limitOptions{Word: "custom"}}})
	require.Len(t, res.Diagnostics, 1)
	assert.Equal(t, 3, res.Diagnostics[0].Start.Line)
	assert.Equal(t, "    custom  =  2", res.Diagnostics[0].LineText)
}

func TestOptionsOf(t *testing.T) {
	fallback := &limitOptions{Word: "fallback"}
	var got *limitOptions
	rule := &analyzer.Rule{
		ID: "SGL991", Name: "options-of", Title: "t", Doc: "d",
		Run: func(pass *analyzer.Pass) error {
			got = analyzer.OptionsOf(pass, func() *limitOptions { return fallback })
			return nil
		},
	}
	in := []checker.Input{{Path: "a.py", Src: []byte("x = 1\n"), Report: true}}
	run := func(hook func() any, configured any) *limitOptions {
		t.Helper()
		got = nil
		rule.Options = hook
		opts := checker.Options{Rules: []*analyzer.Rule{rule}, Jobs: 1}
		if configured != nil {
			opts.RuleOptions = map[string]any{rule.ID: configured}
		}
		res := checker.Run(in, opts)
		require.Empty(t, res.Problems)
		require.NotNil(t, got, "the rule ran")
		return got
	}
	hook := func() any { return &limitOptions{Word: "hook"} }
	custom := &limitOptions{Word: "custom"}

	assert.Equal(t, "hook", run(hook, nil).Word, "the hook's defaults when nothing is configured")
	assert.Same(t, custom, run(hook, custom), "the configured value as is")
	assert.Same(t, fallback, run(nil, nil), "no hook: the fallback")
	assert.Same(t, fallback, run(func() any { return (*limitOptions)(nil) }, nil), "a nil pointer: the fallback")
	assert.Same(t, fallback, run(func() any { return "other" }, nil), "another type: the fallback")
}

package analyzer_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
)

func ruleSet() []*analyzer.Rule {
	mk := func(id, name string, off bool) *analyzer.Rule {
		return &analyzer.Rule{ID: id, Name: name, DefaultOff: off}
	}
	return []*analyzer.Rule{
		mk("SGL000", "syntax-error", false),
		mk("SGL001", "send-before-ready", false),
		mk("SGL002", "lost-abort", false),
		mk("SGL100", "unused-noqa", false),
		mk("SGL101", "pedantic", true),
	}
}

func ids(rs []*analyzer.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestSelectRules(t *testing.T) {
	cases := []struct {
		name            string
		select_, ignore []string
		want            []string
	}{
		{"defaults", nil, nil, []string{"SGL000", "SGL001", "SGL002", "SGL100"}},
		{"one id", []string{"SGL001"}, nil, []string{"SGL001"}},
		{"prefix", []string{"SGL00"}, nil, []string{"SGL000", "SGL001", "SGL002"}},
		{"lowercase", []string{"sgl1"}, nil, []string{"SGL100"}},
		{"name", []string{"lost-abort"}, nil, []string{"SGL002"}},
		{"ignore from defaults", nil, []string{"SGL0"}, []string{"SGL100"}},
		{"specific select beats broad ignore", []string{"SGL001"}, []string{"SGL0"}, []string{"SGL001"}},
		{"specific ignore beats broad select", []string{"SGL"}, []string{"SGL001"}, []string{"SGL000", "SGL002", "SGL100"}},
		{"tie: ignore wins", []string{"SGL001"}, []string{"sgl001"}, nil},
		{"default-off needs its full id", []string{"SGL1"}, nil, []string{"SGL100"}},
		{"default-off by id", []string{"SGL101", "SGL000"}, nil, []string{"SGL000", "SGL101"}},
		{"default-off by name", []string{"pedantic"}, nil, []string{"SGL101"}},
		{"ALL", []string{"ALL"}, []string{"SGL1"}, []string{"SGL000", "SGL001", "SGL002"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := analyzer.SelectRules(ruleSet(), analyzer.Selection{Select: c.select_, Ignore: c.ignore})
			require.NoError(t, err)
			assert.Equal(t, c.want, ids(got))
		})
	}
}

func TestSelectRulesUnknown(t *testing.T) {
	_, err := analyzer.SelectRules(ruleSet(), analyzer.Selection{Select: []string{"SGL10"}})
	require.NoError(t, err, "a prefix")
	_, err = analyzer.SelectRules(ruleSet(), analyzer.Selection{Ignore: []string{"SGL009"}})
	var unknown *analyzer.UnknownSelectorError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "SGL009", unknown.Selector)
	assert.Equal(t, "--ignore SGL009: no rule has this ID, prefix or name", err.Error())
	_, err = analyzer.SelectRules(ruleSet(), analyzer.Selection{Select: []string{"E501"}})
	require.Error(t, err)
	_, err = analyzer.SelectRules(ruleSet(), analyzer.Selection{Select: []string{""}})
	require.Error(t, err)
}

func TestSelectLayers(t *testing.T) {
	// ruleSet: SGL000, SGL001, SGL002, SGL100, SGL101 (DefaultOff).
	type sel = analyzer.Selection
	cases := []struct {
		name   string
		layers []sel
		want   []string
	}{
		{"no layers: defaults", nil, []string{"SGL000", "SGL001", "SGL002", "SGL100"}},
		{"extend-select adds a DefaultOff rule", []sel{{ExtendSelect: []string{"SGL101"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL100", "SGL101"}},
		{"extend-select by prefix does not", []sel{{ExtendSelect: []string{"SGL1"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL100"}},
		{"command line ignore on top of config select",
			[]sel{{Select: []string{"SGL00"}}, {Ignore: []string{"SGL001"}}}, []string{"SGL000", "SGL002"}},
		{"command line select replaces config select and ignore",
			[]sel{{Select: []string{"SGL00"}, Ignore: []string{"SGL001"}}, {Select: []string{"SGL001", "SGL100"}}},
			[]string{"SGL001", "SGL100"}},
		{"command line extend-select re-enables a config ignore",
			[]sel{{Ignore: []string{"SGL002"}}, {ExtendSelect: []string{"SGL002"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL100"}},
		{"config enables a DefaultOff rule; a later prefix extend-select keeps it",
			[]sel{{ExtendSelect: []string{"pedantic"}}, {ExtendSelect: []string{"SGL"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL100", "SGL101"}},
		{"a later prefix ignore disables it",
			[]sel{{ExtendSelect: []string{"SGL101"}}, {Ignore: []string{"SGL1"}}},
			[]string{"SGL000", "SGL001", "SGL002"}},
		{"a later layer without select keeps the earlier select",
			[]sel{{Select: []string{"SGL001"}}, {}}, []string{"SGL001"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := analyzer.SelectLayers(ruleSet(), c.layers...)
			require.NoError(t, err)
			assert.Equal(t, c.want, ids(got))
		})
	}
	_, err := analyzer.SelectLayers(ruleSet(), sel{}, sel{ExtendSelect: []string{"SGL9"}})
	assert.EqualError(t, err, "--extend-select SGL9: no rule has this ID, prefix or name")
}

func TestMatchSelector(t *testing.T) {
	got, err := analyzer.MatchSelector(ruleSet(), "sgl1")
	require.NoError(t, err)
	assert.Equal(t, []string{"SGL100", "SGL101"}, ids(got), "DefaultOff included")
	_, err = analyzer.MatchSelector(ruleSet(), "SGL3")
	assert.EqualError(t, err, "SGL3: no rule has this ID, prefix or name")
}

package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
)

func ids(rs []*analyzer.Rule) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestSelectRules(t *testing.T) {
	// testRules: SGL000, SGL001, SGL002, SGL010, SGL100 (DefaultOff).
	cases := []struct {
		name   string
		layers []Selection
		want   []string
	}{
		{"defaults: all but DefaultOff", nil, []string{"SGL000", "SGL001", "SGL002", "SGL010"}},
		{"select replaces", []Selection{{Select: []string{"SGL001"}}}, []string{"SGL001"}},
		{"empty select disables all", []Selection{{Select: []string{}}}, []string{}},
		{"prefix", []Selection{{Select: []string{"SGL00"}}}, []string{"SGL000", "SGL001", "SGL002"}},
		{"name selects", []Selection{{Select: []string{"unchecked-status"}}}, []string{"SGL002"}},
		{"ignore beats select at equal specificity",
			[]Selection{{Select: []string{"SGL001"}, Ignore: []string{"SGL001"}}}, []string{}},
		{"more specific ignore wins",
			[]Selection{{Select: []string{"SGL"}, Ignore: []string{"SGL001"}}}, []string{"SGL000", "SGL002", "SGL010"}},
		{"more specific select wins",
			[]Selection{{Select: []string{"SGL001"}, Ignore: []string{"SGL"}}}, []string{"SGL001"}},
		{"extend-select adds to defaults",
			[]Selection{{ExtendSelect: []string{"SGL100"}}}, []string{"SGL000", "SGL001", "SGL002", "SGL010", "SGL100"}},
		{"prefix never enables DefaultOff", []Selection{{Select: []string{"SGL1"}}}, []string{}},
		{"ALL never enables DefaultOff", []Selection{{Select: []string{"ALL"}}}, []string{"SGL000", "SGL001", "SGL002", "SGL010"}},
		{"exact ID enables DefaultOff", []Selection{{Select: []string{"SGL100"}}}, []string{"SGL100"}},
		{"prefix ignore disables DefaultOff selected earlier",
			[]Selection{{ExtendSelect: []string{"SGL100"}}, {Ignore: []string{"SGL1"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL010"}},
		{"command line ignore on top of config select",
			[]Selection{{Select: []string{"SGL00"}}, {Ignore: []string{"SGL001"}}}, []string{"SGL000", "SGL002"}},
		{"command line select replaces config select and ignore",
			[]Selection{{Select: []string{"SGL00"}, Ignore: []string{"SGL001"}}, {Select: []string{"SGL001", "SGL010"}}},
			[]string{"SGL001", "SGL010"}},
		{"command line extend-select re-enables a config ignore",
			[]Selection{{Ignore: []string{"SGL002"}}, {ExtendSelect: []string{"SGL002"}}},
			[]string{"SGL000", "SGL001", "SGL002", "SGL010"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SelectRules(testRules(), tc.layers...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, ids(got))
		})
	}
}

func TestSelectRulesUnknown(t *testing.T) {
	_, err := SelectRules(testRules(), Selection{Ignore: []string{"SGL011"}})
	assert.EqualError(t, err, `unknown rule selector "SGL011" (did you mean "SGL010"?)`)
	_, err = SelectRules(testRules(), Selection{Select: []string{"unchecked-stat"}})
	assert.EqualError(t, err, `unknown rule selector "unchecked-stat" (did you mean "unchecked-status"?)`)
	_, err = SelectRules(testRules(), Selection{Select: []string{"SGL9"}})
	assert.EqualError(t, err, `unknown rule selector "SGL9"`, "a prefix matching no rule is an error")
	_, err = SelectRules(testRules(), Selection{Select: []string{"sgl001"}})
	assert.EqualError(t, err, `unknown rule selector "sgl001" (did you mean "SGL001"?)`)
}

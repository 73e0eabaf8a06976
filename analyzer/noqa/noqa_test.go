package noqa

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/analyzer/syntax/syntaxtest"
)

func parse(t *testing.T, src string) *Set {
	t.Helper()
	return Parse(syntaxtest.Parse(t, src))
}

func TestScanForms(t *testing.T) {
	cases := []struct {
		comment   string
		want      []match
		wantCodes [][]string
	}{
		{"# noqa", []match{{start: 0, end: 6}}, nil},
		{"#noqa", []match{{start: 0, end: 5}}, nil},
		{"# NOQA", []match{{start: 0, end: 6}}, nil},
		{"# noqa: SGL001", []match{{start: 0, end: 14, codes: []string{"SGL001"}}}, nil},
		{"# noqa:SGL001,SGL002", []match{{start: 0, end: 20, codes: []string{"SGL001", "SGL002"}}}, nil},
		{"# noqa: SGL001, sgl002 because reasons", []match{{start: 0, end: 22, codes: []string{"SGL001", "SGL002"}}}, nil},
		{"# noqa: SGL001 SGL002", []match{{start: 0, end: 21, codes: []string{"SGL001", "SGL002"}}}, nil},
		{"# noqa - explained", []match{{start: 0, end: 6}}, nil},
		{"# noqa: later", []match{{start: 0, end: 13, invalid: true}}, nil},
		{"# noqa: unchecked-peer-lookup, x", []match{{start: 0, end: 29, invalid: true}}, nil},
		{"# noqa:", []match{{start: 0, end: 7, invalid: true}}, nil},
		{"# type: ignore  # noqa: SGL003", []match{{start: 16, end: 30, codes: []string{"SGL003"}}}, nil},
		{"# sglint: noqa", []match{{start: 0, end: 14, fileLevel: true}}, nil},
		{"#sglint:noqa:SGL001", []match{{start: 0, end: 19, fileLevel: true, codes: []string{"SGL001"}}}, nil},
		{"# SGLint: NoQA: SGL001, SGL004", []match{{start: 0, end: 30, fileLevel: true, codes: []string{"SGL001", "SGL004"}}}, nil},
		// Not directives.
		{"# noqalint", nil, nil},
		{"# see the noqa docs", nil, nil},
		{"# sglint noqa", nil, nil},
		{"# noqa_x", nil, nil},
		{"# pylint: disable=foo", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.comment, func(t *testing.T) {
			assert.Equal(t, c.want, scan(c.comment))
		})
	}
}

func TestParseUsesCommentNodesOnly(t *testing.T) {
	s := parse(t, "a = 1  # noqa: SGL001\n"+
		"s = '# noqa'\n"+
		"d = \"\"\"\n# sglint: noqa\n\"\"\"\n"+
		"b = 2  # NoQA\n")
	require.Len(t, s.Directives, 2)
	assert.Equal(t, syntax.Position{Line: 1, Column: 8}, s.Directives[0].Start)
	assert.Equal(t, syntax.Position{Line: 1, Column: 22}, s.Directives[0].End)
	assert.Equal(t, "# noqa: SGL001", s.Directives[0].Text)
	assert.Equal(t, 6, s.Directives[1].Start.Line)

	assert.True(t, s.Suppresses("SGL001", 1))
	assert.False(t, s.Suppresses("SGL002", 1))
	assert.False(t, s.Suppresses("SGL001", 2), "a string is not a comment")
	assert.False(t, s.Suppresses("SGL001", 4), "a docstring is not a comment")
	assert.True(t, s.Suppresses("SGL002", 6))
}

func TestFileLevel(t *testing.T) {
	s := parse(t, "x = 1\n# sglint: noqa: SGL002\n\ndef f():\n    pass  # sglint: noqa\n")
	require.Len(t, s.Directives, 2)
	assert.True(t, s.Suppresses("SGL002", 1))
	assert.True(t, s.Suppresses("SGL009", 100), "bare file-level directive on an indented line")

	s = parse(t, "x = 1\n# sglint: noqa: SGL002\n")
	assert.True(t, s.Suppresses("SGL002", 1))
	assert.False(t, s.Suppresses("SGL001", 1))
}

func TestInvalidSuppressesNothing(t *testing.T) {
	s := parse(t, "x = 1  # noqa: todo\ny = 2  # sglint: noqa: unchecked-peer-lookup\nz = 3  # noqa:\n")
	require.Len(t, s.Directives, 3)
	assert.True(t, s.Directives[0].Invalid)
	assert.False(t, s.Suppresses("SGL001", 1))
	assert.Equal(t, "todo", s.Directives[0].Word())
	assert.Equal(t, "# sglint: noqa: unchecked-peer-lookup", s.Directives[1].Text)
	assert.Equal(t, "unchecked-peer-lookup", s.Directives[1].Word())
	assert.Equal(t, "", s.Directives[2].Word())
}

func TestUsageRecorded(t *testing.T) {
	s := parse(t, "x = 1  # noqa: SGL001, SGL002\ny = 2  # noqa\nz = 3  # noqa\n# sglint: noqa: SGL004\n")
	require.Len(t, s.Directives, 4)
	require.True(t, s.Suppresses("SGL002", 1))
	require.True(t, s.Suppresses("SGL003", 2))
	require.False(t, s.Suppresses("SGL003", 4))

	line1, line2, line3, file := s.Directives[0], s.Directives[1], s.Directives[2], s.Directives[3]
	assert.True(t, line1.Used())
	assert.Equal(t, []string{"SGL002"}, line1.UsedCodes())
	assert.Equal(t, []string{"SGL001"}, line1.UnusedCodes())
	assert.True(t, line2.Used())
	assert.Equal(t, []string{"SGL003"}, line2.UsedCodes())
	assert.False(t, line3.Used())
	assert.False(t, file.Used())
	assert.Equal(t, []string{"SGL004"}, file.UnusedCodes())

	fresh := line1.Fresh()
	assert.False(t, fresh.Used(), "a fresh copy has suppressed nothing")
	assert.Equal(t, line1.Codes, fresh.Codes)
	assert.True(t, line1.Used(), "the original keeps its usage")
}

func TestNilSet(t *testing.T) {
	var s *Set
	assert.False(t, s.Suppresses("SGL001", 1))
}

func TestMentionsNoqa(t *testing.T) {
	for src, want := range map[string]bool{
		"":                        false,
		"x = 1  # noqa\n":         true,
		"x = 1  # NOQA: SGL001":   true,
		"# sglint: NoQa":          true,
		"noqa":                    true,
		"qa":                      false,
		"q":                       false,
		"request_queue = q.get()": false,
		"no qa":                   false,
	} {
		assert.Equal(t, want, mentionsNoqa([]byte(src)), "%q", src)
	}
}

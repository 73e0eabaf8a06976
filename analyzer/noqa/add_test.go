package noqa

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/syntax"
)

func TestAddToSource(t *testing.T) {
	cases := []struct {
		name, src string
		want      map[int][]string
		out       string
		added     int
		skipped   []Skipped
	}{
		{"append", "send(1)\n", map[int][]string{1: {"SGL001"}}, "send(1)  # noqa: SGL001\n", 1, nil},
		{"codes sorted and unique", "send(1)\n", map[int][]string{1: {"SGL002", "SGL001", "SGL002"}},
			"send(1)  # noqa: SGL001, SGL002\n", 1, nil},
		{"CRLF kept", "a = 1\r\nsend(1)\r\nb = 2\r\n", map[int][]string{2: {"SGL001"}},
			"a = 1\r\nsend(1)  # noqa: SGL001\r\nb = 2\r\n", 1, nil},
		{"lone CR kept", "a = 1\rsend(1)\rb = 2\r", map[int][]string{2: {"SGL001"}},
			"a = 1\rsend(1)  # noqa: SGL001\rb = 2\r", 1, nil},
		{"no final newline", "a = 1\nsend(1)", map[int][]string{2: {"SGL001"}},
			"a = 1\nsend(1)  # noqa: SGL001", 1, nil},
		{"trailing blanks replaced", "send(1) \t \n", map[int][]string{1: {"SGL001"}},
			"send(1)  # noqa: SGL001\n", 1, nil},
		{"BOM and non-UTF-8 bytes kept", "\xef\xbb\xbfsend('\xe9')\n", map[int][]string{1: {"SGL001"}},
			"\xef\xbb\xbfsend('\xe9')  # noqa: SGL001\n", 1, nil},
		{"after another comment", "send(1)  # TODO: retry\n", map[int][]string{1: {"SGL001"}},
			"send(1)  # TODO: retry  # noqa: SGL001\n", 1, nil},
		{"codes merged into a directive", "send(1)  # NOQA:SGL002  (ruff: E501)\n", map[int][]string{1: {"SGL001", "SGL002"}},
			"send(1)  # NOQA:SGL002, SGL001  (ruff: E501)\n", 1, nil},
		{"directive after unicode", "x = 'é'  # noqa: SGL002\n", map[int][]string{1: {"SGL001"}},
			"x = 'é'  # noqa: SGL002, SGL001\n", 1, nil},
		{"bare noqa covers all", "send(1)  # noqa\n", map[int][]string{1: {"SGL001"}}, "send(1)  # noqa\n", 0, nil},
		{"invalid directive: a new one", "send(1)  # noqa: later\n", map[int][]string{1: {"SGL001"}},
			"send(1)  # noqa: later  # noqa: SGL001\n", 1, nil},
		{"multi-line string", "x = f(\"\"\"a\nb\"\"\")\nsend(1)\n", map[int][]string{1: {"SGL001"}, 3: {"SGL001"}},
			"x = f(\"\"\"a\nb\"\"\")\nsend(1)  # noqa: SGL001\n", 1,
			[]Skipped{{1, "the line ends inside a multi-line string"}}},
		{"backslash continuation", "x = 1 + \\\n    2\n", map[int][]string{1: {"SGL001"}},
			"x = 1 + \\\n    2\n", 0, []Skipped{{1, "the line ends with a backslash continuation"}}},
		{"backslash inside a comment", "x = 1  # path\\\ny = 2\n", map[int][]string{1: {"SGL001"}},
			"x = 1  # path\\  # noqa: SGL001\ny = 2\n", 1, nil},
		{"line of an open bracket", "send(\n    1,\n)\n", map[int][]string{1: {"SGL001"}},
			"send(  # noqa: SGL001\n    1,\n)\n", 1, nil},
	}
	p := syntax.NewParser()
	defer p.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, added, skipped, err := AddToSource(p, []byte(c.src), c.want)
			require.NoError(t, err)
			assert.Equal(t, c.out, string(out))
			assert.Equal(t, c.added, added)
			assert.Equal(t, c.skipped, skipped)
		})
	}
}

func TestAddToSourceIsIdempotent(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	want := map[int][]string{1: {"SGL001"}, 2: {"SGL002"}}
	once, n, _, err := AddToSource(p, []byte("send(1)\nrecv(2)  # noqa: SGL001\n"), want)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	twice, n, _, err := AddToSource(p, once, want)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Equal(t, string(once), string(twice))
}

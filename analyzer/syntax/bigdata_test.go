package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dataSource is a generated table of at least size bytes, one element a
// line, after a line of code.
func dataSource(size int) []byte {
	var b bytes.Buffer
	b.WriteString("import os\nTABLE = [\n")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "    (%d, 'name%d', %d.5, [%d, %d, {'k': %d}]),  # row %d\n", n, n, n, n, n+1, n, n)
	}
	b.WriteString("]\nSIZE = len(TABLE)\n")
	return b.Bytes()
}

// codeSource is generated code: functions, one after the other.
func codeSource(size int) []byte {
	var b bytes.Buffer
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "@cache\ndef f%d(x, y=%d):\n    if x > %d:\n        return (x, y)\n    else:\n        return g(x - 1, [y, %d])\n\n", n, n, n, n)
	}
	return b.Bytes()
}

// firstError is the position of the first error node, or "".
func firstError(t *Tree) string {
	for i := 0; i < t.Len(); i++ {
		if n := NodeID(i); t.IsError(n) || t.IsMissing(n) {
			return fmt.Sprint(t.Start(n))
		}
	}
	return ""
}

// fullParse parses without shrinking, as a file under bigSource is.
func fullParse(t *testing.T, p *Parser, src []byte) *Tree {
	nodes, clean, err := parseFlat(p.mem, src, nil, &p.Timing)
	require.NoError(t, err)
	return &Tree{Src: src, nodes: nodes, lineStarts: appendLineStarts(nil, src), clean: clean}
}

func TestBigDataKeepsPositionsAndAFewNodes(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := dataSource(bigSource + 1)
	tree, err := p.Parse(src)
	require.NoError(t, err)
	assert.Less(t, tree.Len(), 64, "the table's inside is blanked")
	assert.Len(t, tree.Src, len(src), "every offset where it was")
	assert.Equal(t, bytes.Count(src, []byte("\n")), bytes.Count(tree.Src, []byte("\n")), "every line where it was")
	assert.Empty(t, firstError(tree))
	text := string(tree.Src)
	assert.Regexp(t, `^import os\nTABLE = \[\n *\.\.\.`, text, "a non-empty list stays non-empty")
	assert.True(t, strings.HasSuffix(text, "]\nSIZE = len(TABLE)\n"))
	// A small file is untouched.
	small := dataSource(bigLiteral * 2)
	tree, err = p.Parse(small)
	require.NoError(t, err)
	assert.Equal(t, small, tree.Src)
}

// An error inside a blanked literal, or in a blanked statement, is
// reported where a full parse reports it.
func TestBigDataErrorsWhereAFullParsePutsThem(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for name, src := range map[string][]byte{
		"data": dataSource(bigSource + 1),
		"code": codeSource(bigSource + 1),
	} {
		at := bytes.LastIndex(src[:len(src)*3/4], []byte(", "))
		broken := bytes.Clone(src)
		broken[at] = ' ' // `(7 'name7', ...)`: a missing comma
		want := firstError(fullParse(t, p, broken))
		require.NotEmpty(t, want, name)
		tree, err := p.Parse(broken)
		require.NoError(t, err)
		assert.Equal(t, want, firstError(tree), name)
		assert.Less(t, tree.Len(), fullParse(t, p, src).Len()*3/5, "%s: the model is bounded", name)
	}
}

func TestBigCodeKeepsTheFirstStatements(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := codeSource(bigSource + 1)
	tree, err := p.Parse(src)
	require.NoError(t, err)
	assert.Empty(t, firstError(tree))
	assert.Equal(t, src[:modelBudget], tree.Src[:modelBudget], "the first statements stay in the model")
	assert.Equal(t, len(src), len(tree.Src))
	last := bytes.LastIndex(src, []byte("@cache"))
	assert.Equal(t, strings.Repeat(" ", len("@cache")), string(tree.Src[last:last+len("@cache")]))
}

// What the lexer cannot read with confidence is parsed whole.
func TestBigSourceThatDoesNotLexIsParsedWhole(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := append(dataSource(bigSource+1), "x = 'unterminated\n"...)
	out := p.shrinkData(src)
	assert.Equal(t, src, out)
	src = append(dataSource(bigSource+1), ")\n"...)
	assert.Equal(t, src, p.shrinkData(src))
}

func TestLexerSkipsStringsAndComments(t *testing.T) {
	src := []byte("a = ['(', \"]\", '''\n)\n''', # ( [\n r'\\'', f\"{x}\"]\n")
	regions, ok := bigRegions(src)
	require.True(t, ok)
	assert.Empty(t, regions)
	starts := statementStarts([]byte("x = (1,\n2)\nif x:\n    pass\nelse:\n    pass\n@d\n@e\ndef f():\n    '''\ny = 1\n'''\nz = 2 \\\n  + 1\nw = 3\n"))
	assert.Equal(t, []int{0, 11, 41, 74, 88}, starts, "x, if (its else is not a start), the decorators with their def, z (its continuation is not a start), w")
}

// BenchmarkBigData reports the time of parsing a 21 MB generated table
// and 21 MB of generated functions, and the process's peak RSS so far (a
// high-water mark: run one case alone, -bench 'BigData/code', for its own
// figure; bench/huge.sh measures the whole command). Budget: under 10x
// the file.
func BenchmarkBigData(b *testing.B) {
	for _, c := range []struct {
		name string
		gen  func(int) []byte
	}{{"data", dataSource}, {"code", codeSource}} {
		b.Run(c.name, func(b *testing.B) {
			src := c.gen(21 << 20)
			p := NewParser()
			defer p.Close()
			for b.Loop() {
				if _, err := p.Parse(src); err != nil {
					b.Fatal(err)
				}
			}
			var ru syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			b.ReportMetric(float64(ru.Maxrss)/1024, "peakRSS-MiB")
			b.ReportMetric(float64(len(src))/(1<<20), "file-MiB")
		})
	}
}

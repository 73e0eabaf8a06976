package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 17, point 3: a finding reads at a glance. The full form has a short
// first line with the severity, the source line with a caret, then the why,
// the record, the chain and the fix on lines of their own; the concise form
// is the one line a finding of before, for pipes and editors.
func TestFullFormatReadsAtAGlance(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	o := runMain(t, root, nil, "--no-cache", "--format", "full", "--records", "testdata/example/records", "./testdata/example")
	require.Equal(t, ExitFindings, o.code, o.stderr)
	blocks := strings.Split(o.stdout, "\n\n")
	require.Len(t, blocks, 9, o.stdout) // eight findings, the summary
	var sgl010 string
	for _, b := range blocks[:8] {
		first, _, _ := strings.Cut(b, "\n")
		assert.Regexp(t, `^(error|warning)\[SGL0\d\d\]: `, first)
		assert.LessOrEqual(t, len([]rune(first)), 120, "a short first line: %s", first)
		assert.Regexp(t, `\n +--> testdata/example/python/sglang/srt/disaggregation/\w+/conn\.py:\d+:\d+\n`, b)
		assert.Regexp(t, `\n\d+ \| .+\n +\| +\^+\n`, b, "the source line and a caret under the span")
		assert.Contains(t, b, "\n   = record: ")
		if strings.Contains(first, "[SGL010]") {
			sgl010 = b
		}
	}
	assert.Contains(t, sgl010, "   = chain: line 62:9: send entry `FabricKVManager.send_aux`\n"+
		"            line 66:36: calls `FabricKVManager._plan_for`\n", "the chain that makes the function a send path")
	assert.Contains(t, sgl010, "\n   = help: check for it before this call and fail only this request; the record advises:\n", sgl010)
	assert.True(t, strings.HasSuffix(sgl010, " Check that the peer's plan exists in every send entry before using it"), sgl010)
	assert.Contains(t, o.stdout, "error[SGL001]: `src` may be empty here\n")
	assert.Equal(t, "Found 8 problems in 2 files: 5 errors (SGL001, SGL002, SGL004, SGL005, SGL006), 3 warnings (SGL001, SGL003, SGL010); 1 file only read, not analysed (not KV code; --all-files analyses them).\n", blocks[8])

	// Not on a terminal (a test's buffer, a pipe), the default is concise:
	// today's one line a finding.
	o = runMain(t, root, nil, "--no-cache", "./testdata/example")
	assert.Equal(t, o, runMain(t, root, nil, "--no-cache", "--format", "concise", "./testdata/example"))
	assert.Equal(t, o, runMain(t, root, nil, "--no-cache", "--format", "text", "./testdata/example"), "text is concise's old name")
	for _, line := range strings.Split(strings.TrimSuffix(o.stdout, "\n"), "\n")[:5] {
		assert.Regexp(t, `^testdata/example/\S+:\d+:\d+: SGL00\d `, line)
	}
}

package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Issue 17, point 4: SGL000 names what was expected where the tokens tell
// it, at the place CPython names, and says it is not a syntax check.
func TestSyntaxErrorNamesWhatWasExpected(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "unclosed.py", "def send(self, req):\n    self.queue.put((req, 1)\n    return req\n")
	putFile(t, dir, "colon.py", "def poll(self)\n    return 1\n")
	putFile(t, dir, "py2.py", "print \"x\"\n")
	putFile(t, dir, "noblock.py", "def f():\nreturn 1\n")
	o := runMain(t, dir, nil, "--all-files", ".")
	assert.Equal(t, outcome{ExitFindings, "colon.py:1:15: SGL000 syntax error: expected `:`\n" +
		"unclosed.py:2:19: SGL000 syntax error: `(` was never closed\n" +
		"Found 2 problems in 2 files: 2 errors (SGL000 ×2).\n", ""}, o,
		"tree-sitter accepts Python 2's print and a missing block: not reported")

	o = runMain(t, "", nil, "rules")
	assert.Regexp(t, `\nSGL000\s+syntax-error\s+error\s+on\s+-\s+File sglint cannot parse \(not a full syntax check\)\n`, o.stdout)
	o = runMain(t, "", nil, "explain", "SGL000")
	assert.Contains(t, o.stdout, "SGL000 is not a syntax checker.")
}

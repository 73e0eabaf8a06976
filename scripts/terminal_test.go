package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 17, point 3: on a terminal the default output is the full form
// (a short first line with the severity, the source line, a caret); in a
// pipe it is the concise line a finding. util-linux's script(1) gives the
// binary a terminal.
func TestDefaultFormatOnATerminal(t *testing.T) {
	script := requireTool(t, "script")
	bin := buildSglint(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "conn.py"), []byte("def send(self, req:\n    pass\n"), 0o644))

	cmd := exec.Command(script, "-qec", bin+" --no-cache conn.py", "/dev/null")
	cmd.Dir = dir
	out, err := cmd.Output()
	require.Error(t, err, "findings exit 1")
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	assert.Contains(t, text, "error[SGL000]: ")
	assert.Contains(t, text, "\n --> conn.py:1:")
	assert.Regexp(t, `\n1 \| def send\(self, req:\n  \| +\^`, text)

	cmd = exec.Command(bin, "--no-cache", "conn.py")
	cmd.Dir = dir
	out, _ = cmd.Output()
	assert.Regexp(t, `^conn\.py:1:\d+: SGL000 `, string(out), "a pipe gets the concise form")
}

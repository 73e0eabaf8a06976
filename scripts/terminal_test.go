package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

	onTerminal := func(env ...string) string {
		cmd := exec.Command(script, "-qec", bin+" --no-cache conn.py", "/dev/null")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append([]string{"NO_COLOR=", "FORCE_COLOR=", "TERM=xterm"}, env...)...)
		out, err := cmd.Output()
		require.Error(t, err, "findings exit 1")
		return strings.ReplaceAll(string(out), "\r\n", "\n")
	}
	// Colour on a terminal (issue 31): escapes around the heading, the
	// gutter and the caret; NO_COLOR and TERM=dumb turn it off.
	coloured := onTerminal()
	assert.Contains(t, coloured, "\x1b[1;31merror[SGL000]\x1b[0m")
	for _, env := range []string{"NO_COLOR=1", "TERM=dumb"} {
		text := onTerminal(env)
		assert.NotContains(t, text, "\x1b[", env)
		assert.Contains(t, text, "error[SGL000]: ")
		assert.Contains(t, text, "\n --> conn.py:1:")
		assert.Regexp(t, `\n1 \| def send\(self, req:\n  \| +\^`, text)
		assert.Equal(t, text, regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(coloured, ""), "colour adds escapes only")
	}

	cmd := exec.Command(bin, "--no-cache", "conn.py")
	cmd.Dir = dir
	out, _ := cmd.Output()
	assert.Regexp(t, `^conn\.py:1:\d+: SGL000 `, string(out), "a pipe gets the concise form")
}

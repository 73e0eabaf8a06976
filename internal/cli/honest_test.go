package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 17, point 2: "All checks passed." only when everything asked for
// was checked. A path that cannot be read leaves the summary saying so, in
// every format, and SARIF's invocation fails.
func TestNothingCheckedIsNotAPass(t *testing.T) {
	dir := t.TempDir()
	o := runMain(t, dir, nil, "./nonexistent")
	assert.Equal(t, outcome{ExitError, "Nothing was checked; 1 path could not be read.\n",
		"sglint: ./nonexistent: no such file or directory\n"}, o)
	o = runMain(t, dir, nil, "--format", "github", "./nonexistent")
	assert.Equal(t, "Nothing was checked; 1 path could not be read.\n", o.stdout)
	o = runMain(t, dir, nil, "--format", "full", "./nonexistent")
	assert.Equal(t, "Nothing was checked; 1 path could not be read.\n", o.stdout)

	o = runMain(t, dir, nil, "--format", "sarif", "./nonexistent")
	assert.Equal(t, ExitError, o.code)
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string `json:"level"`
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &log))
	inv := log.Runs[0].Invocations[0]
	assert.False(t, inv.ExecutionSuccessful)
	require.Len(t, inv.ToolExecutionNotifications, 1)
	assert.Equal(t, "error", inv.ToolExecutionNotifications[0].Level)
	assert.Equal(t, "no such file or directory", inv.ToolExecutionNotifications[0].Message.Text)

	// Checked files still count.
	putFile(t, dir, "ok.py", "x = 1\n")
	o = runMain(t, dir, nil, "ok.py", "./nonexistent")
	assert.Equal(t, "No problems found in 1 file; 1 path could not be read.\n", o.stdout)
}

// A file named on the command line that is skipped (binary, too large) was
// asked for and not checked: an error. Met in a walk, it stays a warning,
// which the summary still counts.
func TestNamedSkippedFileIsAnError(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "blob.py", "x = 1\x00\n")
	putFile(t, dir, "ok.py", "x = 1\n")
	o := runMain(t, dir, nil, "blob.py")
	assert.Equal(t, outcome{ExitError, "Nothing was checked; 1 path could not be read.\n",
		"sglint: blob.py: cannot be checked: binary file (NUL byte at 1:6)\n"}, o)
	o = runMain(t, dir, nil, "--format", "sarif", "blob.py")
	assert.Contains(t, o.stdout, `"executionSuccessful": false`)

	o = runMain(t, dir, nil, ".")
	assert.Equal(t, outcome{ExitClean, "Nothing was analysed; 1 file was skipped, 1 file only read, not analysed (not KV code; --all-files analyses them).\n",
		"sglint: blob.py: warning: binary file (NUL byte at 1:6), skipped\n"}, o)

	o = runMain(t, dir, strings.NewReader("x = 1\x00\n"), "-")
	assert.Equal(t, ExitError, o.code, "standard input is named too")
	assert.Equal(t, stdinHint+"\nsglint: -: cannot be checked: binary file (NUL byte at 1:6)\n", o.stderr)
}

// A selected rule that cannot run says why on stderr and in the summary,
// instead of passing silently; `sglint rules` says it needs records.
func TestSelectedRuleThatCannotRun(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "conn.py", "x = 1\n")
	const msg = "sglint: SGL010 (record-raise-reachable) cannot run: no records are loaded; " +
		"give --records PATH or set records = [...] in [tool.sglint] (docs/records.md)\n"
	o := runMain(t, dir, nil, "--select", "SGL010")
	assert.Equal(t, outcome{ExitError, "Nothing was analysed; SGL010 did not run (no records are loaded), 1 file only read, not analysed (not KV code; --all-files analyses them).\n", msg}, o,
		"selected by name and unable to run: an error (issue 31)")
	o = runMain(t, dir, nil, "--extend-select", "record-raise-reachable")
	assert.Equal(t, msg, o.stderr)
	assert.Equal(t, ExitError, o.code)
	o = runMain(t, dir, nil, "--format", "sarif", "--select", "SGL010")
	assert.Contains(t, o.stdout, `"text": "SGL010 (record-raise-reachable) did not run: no records are loaded"`)

	// On by default, it idles quietly: most runs load no records.
	o = runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitClean, "Nothing was analysed; 1 file only read, not analysed (not KV code; --all-files analyses them).\n", ""}, o)

	o = runMain(t, "", nil, "rules")
	assert.Regexp(t, `\nSGL010\s+record-raise-reachable\s+warning\s+on, needs records\s+-\s+An entry point`, o.stdout)
}

package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// run is runMain without standard input, as a tuple.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	o := runMain(t, dir, nil, args...)
	return o.code, o.stdout, o.stderr
}

func TestDiscoveryExitCodes(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pkg/ok.py", "x = 1\n")
	putFile(t, dir, "pkg/legacy/broken.py", "def f(:\n")
	putFile(t, dir, "pkg/blob.py", "\x00\x01")
	putFile(t, dir, ".gitignore", "generated/\n")
	putFile(t, dir, "generated/broken.py", "def f(:\n")

	code, stdout, stderr := run(t, dir, "--all-files")
	assert.Equal(t, ExitFindings, code)
	assert.Regexp(t, `^pkg/legacy/broken.py:1:\d+: SGL000 [^\n]*\nFound 1 problem in 1 file: 1 error \(SGL000\); 1 file was skipped.\n$`, stdout, "generated/ is gitignored")
	assert.Equal(t, "sglint: pkg/blob.py: warning: binary file (NUL byte at 1:1), skipped\n", stderr)

	code, stdout, _ = run(t, dir, "--exclude", "legacy", "--exclude=*.txt", "pkg")
	assert.Equal(t, ExitClean, code, "a skipped binary file does not fail the run")
	assert.Equal(t, "Nothing was analysed; 1 file was skipped, 1 file only read, not analysed (not KV code; --all-files analyses them).\n", stdout)

	// An unusable argument fails the run, after the others are checked.
	code, stdout, stderr = run(t, dir, "--all-files", "pkg/legacy", "missing.py")
	assert.Equal(t, ExitError, code)
	assert.Regexp(t, `^pkg/legacy/broken.py:1:\d+: SGL000 `, stdout)
	assert.Equal(t, "sglint: missing.py: no such file or directory\n", stderr)

	code, _, stderr = run(t, dir, "--exclude", "[", "pkg")
	assert.Equal(t, ExitError, code)
	assert.Equal(t, "sglint: [: invalid exclude glob\n", stderr)
}

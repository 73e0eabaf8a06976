package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ansi = "\x1b["

// Colour follows --color, then NO_COLOR, then FORCE_COLOR, then the
// terminal; only the text formats are coloured.
func TestColor(t *testing.T) {
	example := testdataDir(t, "example")
	t.Setenv("NO_COLOR", "")
	t.Setenv("FORCE_COLOR", "")
	run := func(args ...string) outcome {
		return runMain(t, example, nil, append([]string{"--no-cache"}, args...)...)
	}
	plain := run("--format", "full")
	assert.NotContains(t, plain.stdout, ansi, "a pipe is not coloured by default")
	full := run("--format", "full", "--color", "always")
	assert.Contains(t, full.stdout, "\x1b[1;31merror[SGL001]\x1b[0m")
	assert.Equal(t, plain.stdout, stripANSI(full.stdout), "colour adds escapes and nothing else")
	concise := run("--format", "concise", "--color", "always")
	assert.Contains(t, concise.stdout, "\x1b[1;31mSGL001\x1b[0m")
	assert.NotContains(t, run("--format", "json", "--color", "always").stdout, ansi)
	assert.NotContains(t, run("--format", "full", "--color", "never").stdout, ansi)

	t.Setenv("FORCE_COLOR", "1")
	assert.Contains(t, run("--format", "full").stdout, ansi, "FORCE_COLOR colours a pipe")
	t.Setenv("NO_COLOR", "1")
	assert.NotContains(t, run("--format", "full").stdout, ansi, "NO_COLOR wins over FORCE_COLOR")
	assert.Contains(t, run("--format", "full", "--color", "always").stdout, ansi, "--color always wins over NO_COLOR")

	bad := run("--color", "sometimes")
	assert.Equal(t, ExitError, bad.code)
	assert.Contains(t, bad.stderr, "--color: want auto, always or never")
}

func stripANSI(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, ansi)
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		s = s[i:]
		s = s[strings.IndexByte(s, 'm')+1:]
	}
}

func TestQuietAndOutputFile(t *testing.T) {
	example := testdataDir(t, "example")
	plain := runMain(t, example, nil, "--no-cache", "--format", "concise")
	require.Equal(t, ExitFindings, plain.code)
	quiet := runMain(t, example, nil, "--no-cache", "--format", "concise", "-q")
	assert.Equal(t, ExitFindings, quiet.code)
	assert.NotContains(t, quiet.stdout, "Found ")
	assert.Equal(t, strings.Join(strings.SplitAfter(plain.stdout, "\n")[:strings.Count(plain.stdout, "\n")-1], ""), quiet.stdout)

	out := filepath.Join(t.TempDir(), "reports", "sglint.txt")
	o := runMain(t, example, nil, "--no-cache", "--format", "concise", "--output-file", out)
	assert.Equal(t, ExitFindings, o.code)
	assert.Empty(t, o.stdout)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, plain.stdout, string(b), "the report goes to the file, its directory created")
}

func TestShowFilesAndSettings(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nignore = [\"SGL100\"]\n\n[tool.sglint.rules.SGL001]\nregistration-calls = [\"enroll_*\"]\n")
	putFile(t, dir, "pkg/conn.py", "x = 1\n")
	putFile(t, dir, "pkg/notes.txt", "not python\n")
	putFile(t, dir, "b.py", "y = 2\n")
	o := runMain(t, dir, nil, "--show-files", ".")
	assert.Equal(t, outcome{ExitClean, "b.py\npkg/conn.py\n", ""}, o)

	o = runMain(t, dir, nil, "--show-settings", "--ignore", "SGL002", "pkg/conn.py")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "# Configuration file: pyproject.toml")
	assert.Contains(t, o.stdout, "# Rules that run: SGL000, SGL001, SGL003,", "the command line's selection applies")
	assert.Contains(t, o.stdout, "[tool.sglint.rules.SGL001]")
	assert.Contains(t, o.stdout, "registration-calls = ['enroll_*']", "the file's value")
	assert.Contains(t, o.stdout, "[tool.sglint.kv-scope]", "sections with their defaults")
	assert.Contains(t, o.stdout, "ignore = ['SGL100']")
}

func TestServerHelp(t *testing.T) {
	o := runMain(t, "", nil, "server", "--help")
	assert.Equal(t, ExitClean, o.code)
	assert.Contains(t, o.stdout, "Usage: sglint server [--no-cache] [-j N]")
	assert.NotContains(t, o.stdout, "--format")
}

// The completion scripts: bash's is run, zsh's and fish's parsed by their
// shells where installed (.ci/run installs them).
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		o := runMain(t, "", nil, "completion", sh)
		require.Equal(t, ExitClean, o.code, o.stderr)
		for _, word := range []string{"format", "color", "show-settings", "output-file", "SGL004", "kv-scope", "explain"} {
			assert.Contains(t, o.stdout, word, sh)
		}
		path := filepath.Join(t.TempDir(), "sglint."+sh)
		require.NoError(t, os.WriteFile(path, []byte(o.stdout), 0o644))
		if _, err := exec.LookPath(sh); err != nil {
			if os.Getenv("SGLINT_REQUIRE_E2E") != "" {
				t.Fatalf("%s is not installed (SGLINT_REQUIRE_E2E is set)", sh)
			}
			continue
		}
		if sh == "zsh" {
			// compdef needs compinit; -n parses without running.
			out, err := exec.Command(sh, "-n", path).CombinedOutput()
			assert.NoError(t, err, "%s", out)
			continue
		}
		if sh == "fish" {
			out, err := exec.Command(sh, "--no-execute", path).CombinedOutput()
			assert.NoError(t, err, "%s", out)
			continue
		}
		script := `source "$1"
complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _sglint; echo "${COMPREPLY[*]}"; }
complete_words sglint --sho
complete_words sglint --format ""
complete_words sglint explain SGL00
complete_words sglint --color al`
		out, err := exec.Command("bash", "-c", script, "bash", path).CombinedOutput()
		require.NoError(t, err, "%s", out)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 4, "%s", out)
		assert.Equal(t, "--show-files --show-settings", lines[0])
		assert.Equal(t, "concise full github json sarif", lines[1])
		assert.Contains(t, lines[2], "SGL004")
		assert.Equal(t, "always", lines[3])
	}
	assert.Equal(t, ExitError, runMain(t, "", nil, "completion", "tcsh").code)
}

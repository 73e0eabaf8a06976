package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireTool finds a program, skipping the test when it is absent unless
// SGLINT_REQUIRE_E2E is set (.ci/run sets it after installing the tools, so
// CI cannot pass by skipping).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("SGLINT_REQUIRE_E2E") != "" {
			t.Fatalf("%s is not installed (SGLINT_REQUIRE_E2E is set)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// repoRoot is the root of this repository: the module root above scripts/.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	require.FileExists(t, filepath.Join(root, ".pre-commit-hooks.yaml"))
	return root
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=sglint test", "-c", "user.email=test@sglint.invalid",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

// TestPreCommitTryRepo runs the real pre-commit on a temporary repository
// with this repository as the hook source. pre-commit builds the hook with
// `go install ./...` from a clone of this repository at HEAD (try-repo adds
// uncommitted changes to tracked files, not new untracked files).
func TestPreCommitTryRepo(t *testing.T) {
	precommit, root := preCommitRepo(t)
	work := gitRepo(t, map[string]string{
		"pkg/bad.py":  "def send_kvcache(self, req:\n    pass\n",
		"pkg/good.py": "def send_kvcache(self, req):\n    pass\n",
		"notes.txt":   "def broken(:\n", // not Python: pre-commit must not pass it to sglint
	})

	home := t.TempDir()
	files := func(files ...string) (string, int) {
		return tryRepo(t, precommit, root, work, home, append([]string{"--files"}, files...)...)
	}

	out, code := files("pkg/bad.py", "pkg/good.py", "notes.txt")
	assert.Equal(t, 1, code, "%s", out)
	assert.Regexp(t, `sglint\.+Failed`, out)
	assert.Regexp(t, `(?m)^pkg/bad\.py:1:\d+: SGL000 syntax error`, out)
	assert.NotContains(t, out, "notes.txt", "types: [python] filters non-Python files")
	assert.NotContains(t, out, "pkg/good.py:")

	out, code = files("pkg/good.py", "notes.txt")
	assert.Equal(t, 0, code, "%s", out)
	assert.Regexp(t, `sglint\.+Passed`, out)
	if t.Failed() {
		t.Logf("pre-commit output:\n%s", strings.TrimSpace(out))
	}
}

// tryRepo runs `pre-commit try-repo root sglint args...` in work, with a
// private pre-commit store (home); Go's module and build caches are shared
// so the hook's `go install` does not download again.
func tryRepo(t *testing.T, precommit, root, work, home string, args ...string) (string, int) {
	t.Helper()
	return tryHook(t, precommit, root, "sglint", work, home,
		[]string{"GOMODCACHE=" + goEnv(t, "GOMODCACHE"), "GOCACHE=" + goEnv(t, "GOCACHE"), "CGO_ENABLED=1"}, args...)
}

// tryHook runs `pre-commit try-repo root hook args...` in work, with a
// private pre-commit store (home) and env added to the environment.
func tryHook(t *testing.T, precommit, root, hook, work, home string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(precommit, append([]string{"try-repo", root, hook}, args...)...)
	cmd.Dir = work
	cmd.Env = append(append(os.Environ(), "PRE_COMMIT_HOME="+home, "PRE_COMMIT_COLOR=never"), env...)
	out, err := cmd.CombinedOutput()
	code := exitCode(t, err, string(out))
	return string(out), code
}

// exitCode is a command's exit status; any other failure to run it fails
// the test, with what it printed.
func exitCode(t *testing.T, err error, out string) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	require.NoError(t, err, "%s", out)
	return 0
}

// preCommitRepo skips unless pre-commit, git and go are there and this
// repository is a git checkout, and returns pre-commit and the root.
func preCommitRepo(t *testing.T) (string, string) {
	t.Helper()
	precommit := requireTool(t, "pre-commit")
	requireTool(t, "git")
	requireTool(t, "go") // language: golang uses the system Go when there is one
	root := repoRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		if os.Getenv("SGLINT_REQUIRE_E2E") != "" {
			t.Fatalf("%s is not a git checkout: pre-commit try-repo needs one", root)
		}
		t.Skipf("%s is not a git checkout", root)
	}
	return precommit, root
}

// writeFiles writes each file, by slash path under dir, with its content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// gitRepo writes files into a new git repository and commits them.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	work := t.TempDir()
	writeFiles(t, work, files)
	gitIn(t, work, "init", "-q")
	gitIn(t, work, "add", ".")
	gitIn(t, work, "commit", "-q", "-m", "fixture")
	return work
}

// Issue 17, point 1: on a repository shaped like sglang, the settings in
// python/pyproject.toml apply to python/'s files whatever else the hook is
// given. --all-files passes benchmark/ first; the config used to be found
// from there, and the file ignored under python/ failed the hook, while
// --files python/... passed.
func TestPreCommitNearestConfig(t *testing.T) {
	precommit, root := preCommitRepo(t)
	work := gitRepo(t, map[string]string{
		"benchmark/bench.py":      "def run(n):\n    return n\n",
		"python/pyproject.toml":   "[project]\nname = \"kvmgr\"\n\n[tool.sglint]\nignore = [\"SGL000\"]\n",
		"python/kvmgr/manager.py": "def send(self, req:\n    pass\n",
	})
	home := t.TempDir()
	out, code := tryRepo(t, precommit, root, work, home, "--files", "python/kvmgr/manager.py")
	assert.Equal(t, 0, code, "%s", out)
	out, code = tryRepo(t, precommit, root, work, home, "--all-files")
	assert.Equal(t, 0, code, "%s", out)
	assert.Regexp(t, `sglint\.+Passed`, out)
	assert.NotContains(t, out, "SGL000")
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// Issue 32, item 3: the sglint-wheel hook needs no Go. pre-commit
// pip-installs this repository (setup.py), which depends on the sglint
// wheel; a local wheel index stands in for PyPI (PIP_NO_INDEX,
// PIP_FIND_LINKS: the wheel built from this checkout, and the setuptools
// and wheel that Debian ships for virtualenv), and the hook runs with no Go
// on the PATH.
func TestPreCommitWheelHookWithoutGo(t *testing.T) {
	precommit, root := preCommitRepo(t)
	if out, err := exec.Command("uname", "-m").Output(); err != nil || strings.TrimSpace(string(out)) != "x86_64" {
		t.Skip("the test wheel is tagged for x86_64")
	}
	index := t.TempDir()
	cmd := exec.Command("python3", filepath.Join(root, "scripts", "wheel.py"), "--binary", buildSglint(t), "--version", "v1.2.3",
		"--platform", "linux_x86_64", "--out", index)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	seeds, _ := filepath.Glob("/usr/share/python-wheels/*.whl")
	if len(seeds) == 0 && os.Getenv("SGLINT_REQUIRE_E2E") == "" {
		t.Skip("no setuptools wheel to build the hook with offline (Debian: python3-setuptools-whl)")
	}
	for _, w := range seeds {
		b, err := os.ReadFile(w)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(index, filepath.Base(w)), b, 0o644))
	}
	noGo := []string{}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err != nil {
			noGo = append(noGo, dir)
		}
	}
	work := gitRepo(t, map[string]string{
		"pkg/bad.py":  "def send_kvcache(self, req:\n    pass\n",
		"pkg/good.py": "def send_kvcache(self, req):\n    pass\n",
	})
	home := t.TempDir()
	run := func(files ...string) (string, int) {
		return tryHook(t, precommit, root, "sglint-wheel", work, home, []string{
			"PATH=" + strings.Join(noGo, string(os.PathListSeparator)),
			"PIP_NO_INDEX=1", "PIP_FIND_LINKS=" + index, "PIP_DISABLE_PIP_VERSION_CHECK=1",
		}, append([]string{"--files"}, files...)...)
	}
	began := time.Now()
	out2, code := run("pkg/bad.py", "pkg/good.py")
	t.Logf("first run of the wheel hook (environment built): %v", time.Since(began).Round(100*time.Millisecond))
	assert.Equal(t, 1, code, "%s", out2)
	assert.Regexp(t, `sglint\.+Failed`, out2)
	assert.Regexp(t, `(?m)^pkg/bad\.py:1:\d+: SGL000 syntax error`, out2)
	out2, code = run("pkg/good.py")
	assert.Equal(t, 0, code, "%s", out2)
	assert.Regexp(t, `sglint\.+Passed`, out2)
	// try-repo keeps the hook's environment in a temporary store: that the
	// hook ran sglint with no Go on PATH to build it is the proof.
}

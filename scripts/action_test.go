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

// actionEnv is the environment GitHub gives the action's run step.
type actionEnv struct {
	dir, summary, output string
}

func newActionEnv(t *testing.T) actionEnv {
	t.Helper()
	dir := t.TempDir()
	return actionEnv{dir: dir, summary: filepath.Join(dir, "summary.md"), output: filepath.Join(dir, "output.txt")}
}

// run runs scripts/action.sh with sglint at binary, in e.dir, and returns
// its stdout and exit code.
func (e actionEnv) run(t *testing.T, binary string, env ...string) (string, int) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	script, err := filepath.Abs("action.sh")
	require.NoError(t, err)
	cmd := exec.Command(bash, script)
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), "SGLINT="+binary, "GITHUB_STEP_SUMMARY="+e.summary, "GITHUB_OUTPUT="+e.output,
		"GITHUB_SERVER_URL=", "GITHUB_REPOSITORY=", "GITHUB_SHA=",
		"INPUT_PATHS=", "INPUT_ARGS=", "INPUT_SARIF_FILE=", "INPUT_FAIL_ON_FINDINGS=")
	cmd.Env = append(cmd.Env, env...)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	err = cmd.Run()
	code := exitCode(t, err, "")
	return stdout.String(), code
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}

// fakeSglint writes a stand-in for the binary that logs its arguments,
// prints stdout for --format github and "{}" for --format sarif, and exits
// with code. It tests the script's own logic (argument splitting, exit codes,
// the summary); action_e2e_test.go runs the real binary.
func fakeSglint(t *testing.T, dir, stdout string, code int) string {
	t.Helper()
	return fakeSglintErr(t, dir, stdout, "", code)
}

// fakeSglintErr is fakeSglint that also prints stderr.
func fakeSglintErr(t *testing.T, dir, stdout, stderr string, code int) string {
	t.Helper()
	p := filepath.Join(dir, "fake-sglint")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'" + filepath.Join(dir, "args.log") + "'\n" +
		"printf '[%s]' \"$@\" >>'" + filepath.Join(dir, "argv.log") + "'; echo >>'" + filepath.Join(dir, "argv.log") + "'\n" +
		"case \"$2\" in sarif) echo '{}'; exit 0;; esac\n" +
		"cat >&2 <<'ERR'\n" + stderr + "ERR\n" +
		"cat <<'OUT'\n" + stdout + "OUT\nexit " + string(rune('0'+code)) + "\n"
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

func TestActionScriptSummaryAndExitCodes(t *testing.T) {
	e := newActionEnv(t)
	out := "::error title=sglint (SGL001),file=a.py,line=3,col=5::a.py:3:5: SGL001 send before ready\n" +
		"a.py:3:5: SGL001 send before ready\n" +
		"dir with space/b.py:10:1: SGL002 compare a | b <tag> & more\n" +
		"Found 2 problems in 2 files.\n"
	bin := fakeSglint(t, e.dir, out, 1)

	stdout, code := e.run(t, bin, "INPUT_PATHS=src\n  tests/*.py", "INPUT_ARGS=--select SGL0 --baseline b.json",
		"INPUT_SARIF_FILE=reports/sglint.sarif")
	assert.Equal(t, 1, code, "findings fail by default")
	assert.Equal(t, out, stdout, "the log carries sglint's output unchanged")
	assert.Equal(t, "--format github --select SGL0 --baseline b.json src tests/*.py\n"+
		"--format sarif --exit-zero --select SGL0 --baseline b.json src tests/*.py\n",
		read(t, filepath.Join(e.dir, "args.log")), "inputs split on whitespace, globs left alone")
	assert.Equal(t, "{}\n", read(t, filepath.Join(e.dir, "reports/sglint.sarif")))
	fi, err := os.Stat(filepath.Join(e.dir, "reports/sglint.sarif"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "readable by the upload step")
	assert.Equal(t, `### sglint

Found 2 problems in 2 files.

| Rule | Location | Message |
| --- | --- | --- |
| SGL001 | a.py:3:5 | send before ready |
| SGL002 | dir with space/b.py:10:1 | compare a \| b &lt;tag&gt; &amp; more |
`, read(t, e.summary))
	assert.Equal(t, "findings=2\nexit-code=1\nsarif-file=reports/sglint.sarif\n", read(t, e.output))

	// fail-on-findings: false turns findings into success.
	e = newActionEnv(t)
	_, code = e.run(t, fakeSglint(t, e.dir, out, 1), "INPUT_FAIL_ON_FINDINGS=false")
	assert.Equal(t, 0, code)
	assert.Equal(t, "--format github .\n", read(t, filepath.Join(e.dir, "args.log")), "paths default to .")
}

func TestActionScriptLinksOnGitHub(t *testing.T) {
	e := newActionEnv(t)
	bin := fakeSglint(t, e.dir, "./pkg/conn.py:7:9: SGL001 m\n../up.py:1:1: SGL001 m\n", 1)
	_, code := e.run(t, bin, "GITHUB_SERVER_URL=https://github.example", "GITHUB_REPOSITORY=o/r", "GITHUB_SHA=abc")
	assert.Equal(t, 1, code)
	summary := read(t, e.summary)
	assert.Contains(t, summary, "| SGL001 | [pkg/conn.py:7:9](https://github.example/o/r/blob/abc/pkg/conn.py#L7) | m |")
	assert.Contains(t, summary, "| SGL001 | ../up.py:1:1 | m |", "no link outside the checkout")
}

func TestActionScriptCleanAndErrors(t *testing.T) {
	e := newActionEnv(t)
	_, code := e.run(t, fakeSglint(t, e.dir, "All checks passed.\n", 0))
	assert.Equal(t, 0, code)
	assert.Equal(t, "### sglint\n\nAll checks passed.\n", read(t, e.summary))
	assert.Equal(t, "findings=0\nexit-code=0\nsarif-file=\n", read(t, e.output))

	e = newActionEnv(t)
	stdout, code := e.run(t, fakeSglint(t, e.dir, "", 2), "INPUT_FAIL_ON_FINDINGS=false")
	assert.Equal(t, 2, code, "errors fail even with fail-on-findings false")
	assert.Equal(t, "### sglint\n\nsglint failed (exit 2); see the step log.\n\n", read(t, e.summary))
	assert.Contains(t, stdout, "::error title=sglint::sglint failed (exit 2); see the step log\n", "an annotation even without a message")

	// Issue 31: a missing baseline and a configuration error are annotations
	// (at their file:line:col when they have one), and the summary says
	// what to do.
	e = newActionEnv(t)
	stdout, code = e.run(t, fakeSglintErr(t, e.dir, "", "sglint: warning: something minor\n"+
		"sglint: ci/base.json: cannot read baseline: open ci/base.json: no such file or directory\n"+
		"sglint: pyproject.toml:3:1: tool.sglint.selct: unknown key (did you mean \"select\"?)\n", 2))
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "::error title=sglint::ci/base.json: cannot read baseline: open ci/base.json: no such file or directory\n")
	assert.Contains(t, stdout, "::error file=pyproject.toml,line=3,col=1,title=sglint::tool.sglint.selct: unknown key (did you mean \"select\"?)\n")
	assert.NotContains(t, stdout, "something minor", "warnings are not errors")
	summary := read(t, e.summary)
	assert.Contains(t, summary, "- ci/base.json: cannot read baseline: open ci/base.json: no such file or directory\n")
	assert.Contains(t, summary, "A baseline file that does not exist yet is made with `sglint --write-baseline FILE`")

	e = newActionEnv(t)
	stdout, code = e.run(t, fakeSglint(t, e.dir, "", 0), "INPUT_FAIL_ON_FINDINGS=maybe")
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "fail-on-findings must be true or false")
}

func TestActionScriptSummaryBudget(t *testing.T) {
	e := newActionEnv(t)
	var out strings.Builder
	msg := strings.Repeat("x", 1000)
	for i := 1; i <= 1000; i++ {
		out.WriteString("a.py:1:1: SGL001 " + msg + "\n")
	}
	_, code := e.run(t, fakeSglint(t, e.dir, out.String(), 1))
	assert.Equal(t, 1, code)
	summary := read(t, e.summary)
	assert.Less(t, len(summary), 1<<20, "GitHub's step summary limit")
	assert.Contains(t, summary, "\n1000 finding(s).\n", "without sglint's closing line, the count")
	assert.Regexp(t, `\n\d+ more finding\(s\) are not shown here`, summary)
	assert.Equal(t, "findings=1000\nexit-code=1\nsarif-file=\n", read(t, e.output))
}

// Issue 17, point 7: args are split as a shell splits them (quotes, no
// expansion), and --format in args is refused: the action chooses it.
func TestActionScriptArgsAsShellWords(t *testing.T) {
	e := newActionEnv(t)
	bin := fakeSglint(t, e.dir, "All checks passed.\n", 0)
	_, code := e.run(t, bin, `INPUT_ARGS=--baseline "ci/my baseline.json" --exclude 'python/sglang/test/**' --records $HOME`,
		"INPUT_PATHS=python 'bench marks'")
	assert.Equal(t, 0, code)
	assert.Equal(t, "--format github --baseline ci/my baseline.json --exclude python/sglang/test/** --records $HOME python bench marks\n",
		read(t, filepath.Join(e.dir, "args.log")))
	argv := read(t, filepath.Join(e.dir, "argv.log"))
	assert.Equal(t, "[--format][github][--baseline][ci/my baseline.json][--exclude][python/sglang/test/**][--records][$HOME][python][bench marks]\n", argv,
		"one argument a word, nothing expanded")

	for _, args := range []string{"--format json", "--format=sarif", "--select SGL001 -format text"} {
		e = newActionEnv(t)
		stdout, code := e.run(t, fakeSglint(t, e.dir, "", 0), "INPUT_ARGS="+args)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, stdout, "::error title=sglint::args must not set --format", args)
		assert.NoFileExists(t, filepath.Join(e.dir, "args.log"), "sglint did not run: %s", args)
	}
	e = newActionEnv(t)
	stdout, code := e.run(t, fakeSglint(t, e.dir, "", 0), `INPUT_ARGS=--baseline "open`)
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "args has an unclosed quote")
}

// After an error no SARIF file is left for the upload step (an empty one
// fails it; a partial one closes alerts), and the sarif-file output is
// empty; the summary carries sglint's own closing line.
func TestActionScriptNoSARIFAfterError(t *testing.T) {
	e := newActionEnv(t)
	sarif := filepath.Join(e.dir, "out", "sglint.sarif")
	require.NoError(t, os.MkdirAll(filepath.Dir(sarif), 0o755))
	require.NoError(t, os.WriteFile(sarif, []byte("{stale}"), 0o644))
	stdout, code := e.run(t, fakeSglint(t, e.dir, "Nothing was checked; 1 path could not be read.\n", 2), "INPUT_SARIF_FILE=out/sglint.sarif")
	assert.Equal(t, 2, code)
	assert.NoFileExists(t, sarif)
	assert.Contains(t, stdout, "::error title=sglint::no SARIF written to out/sglint.sarif: sglint failed (exit 2)")
	assert.Equal(t, "findings=0\nexit-code=2\nsarif-file=\n", read(t, e.output))
	assert.Equal(t, "### sglint\n\nsglint failed (exit 2); see the step log.\n\nNothing was checked; 1 path could not be read.\n", read(t, e.summary))
	assert.Equal(t, "--format github .\n", read(t, filepath.Join(e.dir, "args.log")), "no second run for SARIF")
}

// The documented workflows are the ones that work for a new user: a
// baseline recorded once before the workflow uses it, the permissions
// private repositories need, and an upload that skips a missing file and
// forks' read-only tokens.
func TestDocumentedWorkflows(t *testing.T) {
	for _, doc := range []string{"README.md", "docs/integrations.md"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), doc))
		require.NoError(t, err)
		text := string(b)
		wf := text[strings.Index(text, "uses: sglint/sglint@"):]
		wf = wf[:strings.Index(wf, "```")]
		before := text[:strings.Index(text, "uses: sglint/sglint@")]
		if strings.Contains(wf, "--baseline sglint-baseline.json") {
			assert.Contains(t, before, "sglint --write-baseline sglint-baseline.json python", doc)
		}
		assert.Contains(t, before, "security-events: write", doc)
		assert.Contains(t, before, "actions: read", doc)
		assert.Contains(t, wf, "id: sglint", doc)
		assert.Contains(t, wf, "if: ${{ !cancelled() && steps.sglint.outputs.sarif-file != '' && !github.event.pull_request.head.repo.fork }}", doc)
		assert.Contains(t, wf, "sarif_file: ${{ steps.sglint.outputs.sarif-file }}", doc)
	}
	action, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	require.NoError(t, err)
	assert.Contains(t, string(action), "  sarif-file:\n    description: The SARIF file written")
}

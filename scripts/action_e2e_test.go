package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildSglint builds the real binary from this repository.
func buildSglint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sglint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sglint")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// TestActionScriptWithRealBinary runs the action's script as the action
// does (GITHUB_STEP_SUMMARY and GITHUB_OUTPUT set) on a fixture project:
// annotations in the log, every finding in the summary table, SARIF that
// validates against the SARIF 2.1.0 schema.
func TestActionScriptWithRealBinary(t *testing.T) {
	requireTool(t, "bash")
	bin := buildSglint(t)
	e := newActionEnv(t)
	writeFiles(t, e.dir, map[string]string{
		"pyproject.toml":       "[tool.sglint]\nignore = []\n",
		"pkg/conn.py":          "def send_kvcache(self, req:\n    pass\n",
		"pkg/mooncake/conn.py": "x = = 1\n",
		"pkg/ok.py":            "x = 1\n",
		"pkg/suppressed.py":    "x = = 1  # noqa: SGL000\n",
		"pkg/pipe | <tag>.py":  "y = = 2\n",
		"other/not_checked.py": "z = = 3\n",
	})

	// --all-files: the fixture holds no KV classes; every file is analysed.
	stdout, code := e.run(t, bin, "INPUT_PATHS=pkg", "INPUT_ARGS=--all-files", "INPUT_SARIF_FILE=out/sglint.sarif")
	assert.Equal(t, 1, code, stdout)
	assert.Regexp(t, "::error title=SGL000%3A syntax error%3A [^,]*,file=pkg/conn.py,line=1,", stdout)
	assert.Contains(t, stdout, "\npkg/mooncake/conn.py:1:5: SGL000 ", "plain lines follow the annotations")

	summary := read(t, e.summary)
	assert.True(t, strings.HasPrefix(summary, "### sglint\n\nFound 3 problems in 3 files: 3 errors (SGL000 ×3).\n\n"+
		"| Rule | Location | Message |\n| --- | --- | --- |\n"), summary)
	assert.Contains(t, summary, "| SGL000 | pkg/mooncake/conn.py:1:5 | syntax error: unexpected `=` |")
	assert.Contains(t, summary, "| SGL000 | pkg/pipe \\| &lt;tag&gt;.py:1:5 |")
	assert.NotContains(t, summary, "suppressed.py")
	assert.NotContains(t, summary, "not_checked.py")
	assert.Equal(t, "findings=3\nexit-code=1\nsarif-file=out/sglint.sarif\n", read(t, e.output))

	sarif, err := os.ReadFile(filepath.Join(e.dir, "out", "sglint.sarif"))
	require.NoError(t, err)
	schema, err := filepath.Abs(filepath.Join("..", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(schema)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarif))
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(inst))
	assert.Equal(t, 3, strings.Count(string(sarif), `"ruleId": "SGL000"`))

	// A config error fails the step whatever fail-on-findings says.
	require.NoError(t, os.WriteFile(filepath.Join(e.dir, "pyproject.toml"), []byte("[tool.sglint]\nselct = []\n"), 0o644))
	e2 := e
	e2.summary, e2.output = filepath.Join(e.dir, "summary2.md"), filepath.Join(e.dir, "output2.txt")
	stdout2, code := e2.run(t, bin, "INPUT_PATHS=pkg", "INPUT_FAIL_ON_FINDINGS=false", "INPUT_SARIF_FILE=out/sglint.sarif")
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout2, "::error file=pyproject.toml,line=2,col=1,title=sglint::tool.sglint.selct: unknown key",
		"a configuration error is an annotation at its place")
	assert.Equal(t, "### sglint\n\nsglint failed (exit 2); see the step log.\n\n"+
		"- pyproject.toml:2:1: tool.sglint.selct: unknown key (did you mean \"select\"?)\n\nFix these and run again.\n\n", read(t, e2.summary))
	assert.NoFileExists(t, filepath.Join(e.dir, "out", "sglint.sarif"), "no empty SARIF for the upload step after an error")
	assert.Equal(t, "findings=0\nexit-code=2\nsarif-file=\n", read(t, e2.output))
}

// Issue 17, point 7, as a user adopts the action: record a baseline once
// (the step the README shows), then the action passes with it, and its
// job summary says how many findings the baseline hid. args take quotes.
func TestActionScriptWithBaseline(t *testing.T) {
	requireTool(t, "bash")
	bin := buildSglint(t)
	e := newActionEnv(t)
	writeFiles(t, e.dir, map[string]string{
		"python/pyproject.toml": "[tool.sglint]\nignore = []\n",
		"python/kv/old.py":      "x = = 1\n",
		"python/kv/also old.py": "y = = 2\n",
		"python/kv/fine.py":     "z = 3\n",
	})
	require.NoError(t, os.MkdirAll(filepath.Join(e.dir, "ci", "baselines"), 0o755))
	// --all-files: the fixture holds no KV classes; every file is analysed.
	cmd := exec.Command(bin, "--all-files", "--write-baseline", "ci/baselines/sglint baseline.json", "python")
	cmd.Dir = e.dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	stdout, code := e.run(t, bin, "INPUT_PATHS=python", `INPUT_ARGS=--all-files --baseline "ci/baselines/sglint baseline.json"`,
		"INPUT_SARIF_FILE=sglint.sarif")
	assert.Equal(t, 0, code, stdout)
	assert.Equal(t, "### sglint\n\nNo problems found in 3 files; the baseline hid 2 findings.\n", read(t, e.summary))
	assert.Equal(t, "findings=0\nexit-code=0\nsarif-file=sglint.sarif\n", read(t, e.output))
	assert.FileExists(t, filepath.Join(e.dir, "sglint.sarif"))
}

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/internal/golden"
	"github.com/sglint/sglint/rules"
)

func TestMain(m *testing.M) {
	Version = "0.0.0-test" // stable SARIF goldens
	// One cache for the whole package, outside the source tree (a test
	// checking testdata/ would otherwise write .sglint_cache at the
	// repository root). Tests that run twice on a directory read it back.
	dir, err := os.MkdirTemp("", "sglint-cli-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("SGLINT_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type outcome struct {
	code           int
	stdout, stderr string
}

// runMain runs Main in dir (if not empty) with stdin.
func runMain(t *testing.T, dir string, stdin io.Reader, args ...string) outcome {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errOut bytes.Buffer
	code := Main(args, stdin, &out, &errOut)
	return outcome{code, out.String(), errOut.String()}
}

// putFile writes content at dir/name, creating directories.
func putFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func projectDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "project"))
	require.NoError(t, err)
	return dir
}

// TestGoldenFormats runs the whole pipeline on testdata/project in every
// format. The SARIF %SRCROOT% is the working directory: replaced by a
// placeholder so the golden file does not depend on the machine.
func TestGoldenFormats(t *testing.T) {
	dir := projectDir(t)
	for _, format := range []string{"full", "concise", "json", "github", "sarif"} {
		t.Run(format, func(t *testing.T) {
			o := runMain(t, dir, nil, "--all-files", "--format", format)
			assert.Equal(t, ExitFindings, o.code, o.stderr)
			assert.Empty(t, o.stderr)
			got := strings.ReplaceAll(o.stdout, "file://"+filepath.ToSlash(dir)+"/", "file:///SRCROOT/")
			golden.Assert(t, format+".golden", []byte(got))
		})
	}
}

func TestTextOutputAndExitCodes(t *testing.T) {
	dir := projectDir(t)
	o := runMain(t, dir, nil, "--all-files")
	assert.Equal(t, ExitFindings, o.code)
	// Column 19 in code points ("é" and "ü" are two bytes each).
	assert.Equal(t, "legacy/old.py:2:5: SGL000 syntax error: unexpected `=`\n"+
		"pkg/odd, name.py:1:19: SGL000 syntax error: unexpected `3`\n"+
		"pkg/sender.py:3:39: SGL000 syntax error: unexpected `req`\n"+
		"Found 3 problems in 3 files: 3 errors (SGL000 ×3).\n", o.stdout, "default excludes skip .venv and build; noqa applies")

	o = runMain(t, dir, nil, "--all-files", "--exit-zero")
	assert.Equal(t, ExitClean, o.code)
	assert.Contains(t, o.stdout, "Found 3 problems")

	o = runMain(t, dir, nil, "--all-files", "pkg/receiver.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
}

func TestFlagsAnywhere(t *testing.T) {
	dir := projectDir(t)
	a := runMain(t, dir, nil, "--all-files", "--format", "json", "pkg")
	b := runMain(t, dir, nil, "--all-files", "pkg", "--format=json")
	assert.Equal(t, a, b)
	var findings []map[string]any
	require.NoError(t, json.Unmarshal([]byte(a.stdout), &findings), "json: nothing else on stdout")
	assert.Len(t, findings, 2)

	// After --, everything is a path.
	o := runMain(t, dir, nil, "--all-files", "--", "--format")
	assert.Equal(t, ExitError, o.code)
	assert.Equal(t, "sglint: --format: no such file or directory\n", o.stderr)
}

func TestExclude(t *testing.T) {
	dir := projectDir(t)
	o := runMain(t, dir, nil, "--all-files", "--exclude", "legacy", "--exclude=odd*,sender.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	o = runMain(t, dir, nil, "--all-files", "--exclude", "pkg/*.py")
	assert.Equal(t, ExitFindings, o.code)
	assert.Equal(t, "legacy/old.py:2:5: SGL000 syntax error: unexpected `=`\nFound 1 problem in 1 file: 1 error (SGL000).\n", o.stdout)
	o = runMain(t, dir, nil, "--all-files", "--exclude", "[")
	assert.Equal(t, outcome{ExitError, "", "sglint: [: invalid exclude glob\n"}, o, "a usage error: no report on stdout")
}

// A selection that leaves no rule is not an error, but it says so.
func TestEmptySelectionWarns(t *testing.T) {
	dir := projectDir(t)
	o := runMain(t, dir, nil, "--select", "SGL1")
	assert.Equal(t, ExitClean, o.code)
	assert.Contains(t, o.stderr, "sglint: warning: no rule is selected")
	o = runMain(t, dir, nil, "--select", "SGL000", "--ignore", "SGL000")
	assert.Contains(t, o.stderr, "no rule is selected")
	o = runMain(t, dir, nil, "--select", "SGL000")
	assert.NotContains(t, o.stderr, "no rule is selected")
}

func TestSelectIgnore(t *testing.T) {
	dir := projectDir(t)
	for _, args := range [][]string{
		{"--ignore", "SGL000"},
		{"--ignore", "SGL0"},
		{"--ignore", "syntax-error"},
		{"--select", "SGL0", "--ignore", "sgl000"},
	} {
		o := runMain(t, dir, nil, append([]string{"--all-files"}, args...)...)
		if args[0] == "--ignore" && args[1] == "SGL0" { // every default rule ignored
			assert.Contains(t, o.stderr, "no rule is selected")
			o.stderr = ""
		}
		assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o, "%v", args)
	}
	for _, args := range [][]string{
		{"--select", "SGL000"},
		{"--select", "SGL"},
		{"--select", "SGL0,syntax-error"},
		{"--select", "ALL"},
		{"--select", "SGL00", "--select", "SGL000"},
	} {
		o := runMain(t, dir, nil, append([]string{"--all-files"}, args...)...)
		assert.Equal(t, ExitFindings, o.code, "%v: %s", args, o.stderr)
	}

	o := runMain(t, dir, nil, "--all-files", "--select", "SGL0000")
	assert.Equal(t, ExitError, o.code)
	assert.Equal(t, "sglint: --select SGL0000: no rule has this ID, prefix or name (did you mean SGL000?)\n"+
		"Run 'sglint --help' for usage.\n", o.stderr)
	assert.Empty(t, o.stdout)
	o = runMain(t, dir, nil, "--all-files", "--ignore", "syntax-eror")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "(did you mean syntax-error?)")
}

func TestUsageErrors(t *testing.T) {
	dir := projectDir(t)
	cases := map[string][]string{
		"unknown format \"xml\"":              {"--format", "xml"},
		"unknown flag --frobnicate":           {"--frobnicate"},
		"--jobs must be at least 1":           {"-j", "-1"},
		"invalid value \"x\" for flag --jobs": {"--jobs", "x"},
	}
	for want, args := range cases {
		o := runMain(t, dir, nil, args...)
		assert.Equal(t, ExitError, o.code, "%v", args)
		assert.Contains(t, o.stderr, want, "%v", args)
		assert.Empty(t, o.stdout, "%v", args)
	}
	o := runMain(t, dir, nil, "--help")
	assert.Equal(t, ExitClean, o.code)
	assert.Contains(t, o.stdout, "Usage:")
	assert.Equal(t, o, runMain(t, dir, nil, "help"))
	assert.Equal(t, o, runMain(t, dir, nil, "-h"))
}

// The help fits one screen; the reference is in docs/cli.md.
func TestHelpFitsOneScreen(t *testing.T) {
	o := runMain(t, "", nil, "--help")
	assert.Equal(t, ExitClean, o.code)
	assert.LessOrEqual(t, strings.Count(o.stdout+o.stderr, "\n"), 40)
}

// Every flag the usage text documents is accepted.
func TestUsageListsEveryFlag(t *testing.T) {
	for _, flag := range []string{"--format", "--select", "--ignore", "--exclude", "--exit-zero", "-j, --jobs", "--version", "--add-noqa",
		"--extend-select", "--config", "--respect-gitignore", "--baseline", "--write-baseline", "--statistics", "--stdin-filename", "--records",
		"--all-files", "--cache-dir", "--no-cache", "--stats", "--color", "-q, --quiet", "--output-file", "--show-files", "--show-settings", "--fix"} {
		assert.Contains(t, usage, flag)
	}
}

func TestUnreadableExplicitPath(t *testing.T) {
	dir := projectDir(t)
	o := runMain(t, dir, nil, "missing.py", "pkg/sender.py")
	assert.Equal(t, ExitError, o.code, "an unreadable explicit path fails the run")
	assert.Equal(t, "sglint: missing.py: no such file or directory\n", o.stderr)
	assert.Contains(t, o.stdout, "pkg/sender.py:3:39: SGL000", "the other paths are still checked")

	o = runMain(t, dir, nil, "--format", "sarif", "missing.py")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stdout, `"text": "no such file or directory"`, "recorded in the SARIF log too")
}

func TestExplicitFileWhateverItsName(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "script", "x = = 1\n")
	putFile(t, dir, "x.py/inner.py", "y = = 2\n") // a directory named x.py
	o := runMain(t, dir, nil, "--all-files", "script", ".")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, "script:1:5: SGL000 syntax error: unexpected `=`\n"+
		"x.py/inner.py:1:5: SGL000 syntax error: unexpected `=`\n"+
		"Found 2 problems in 2 files: 2 errors (SGL000 ×2).\n", o.stdout)
}

func TestAbsolutePathsDisplayRelative(t *testing.T) {
	dir := projectDir(t)
	o := runMain(t, dir, nil, filepath.Join(dir, "pkg", "sender.py"))
	assert.True(t, strings.HasPrefix(o.stdout, "pkg/sender.py:3:39: "), o.stdout)
}

func TestStdin(t *testing.T) {
	fabric := testdataDir(t, "example", "python", "sglang", "srt", "disaggregation", "fabric")
	o := runMain(t, t.TempDir(), strings.NewReader("def f(:\n    pass\n"), "-")
	assert.Equal(t, ExitFindings, o.code)
	assert.Equal(t, "-:1:6: SGL000 syntax error: `(` was never closed\nFound 1 problem in 1 file: 1 error (SGL000).\n", o.stdout)

	// Issue 31: without --stdin-filename the file has no module, so what
	// depends on its place is not seen: a warning says so, not a silent
	// pass. With a name it is checked as that file of the project.
	const warn = "sglint: warning: standard input has no path"
	assert.Contains(t, o.stderr, warn)
	dir := fabric
	src, err := os.ReadFile(filepath.Join(dir, "conn.py"))
	require.NoError(t, err)
	named := runMain(t, dir, strings.NewReader(string(src)), "--no-cache", "--stdin-filename", "conn.py")
	assert.Equal(t, ExitFindings, named.code, named.stderr)
	assert.NotContains(t, named.stderr, warn)
	assert.Contains(t, named.stdout, "Found 5 problems in 1 file")
}

func TestNoPythonFiles(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "README.md", "# nothing\n")
	o := runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", "sglint: warning: no Python files found under .\n"}, o)
}

// The output is byte-identical for any number of workers.
func TestDeterministicAcrossJobs(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 60; i++ {
		src := fmt.Sprintf("def f%d(x):\n    return x\n", i)
		if i%3 == 0 {
			src = fmt.Sprintf("def f%d(x):\n    return g(x y)\n", i)
		}
		putFile(t, dir, fmt.Sprintf("p%d/m%02d.py", i%7, i), src)
	}
	for _, format := range []string{"full", "concise", "json", "sarif"} {
		one := runMain(t, dir, nil, "--all-files", "-j", "1", "--format", format)
		for _, jobs := range []string{"2", "4", "16"} {
			many := runMain(t, dir, nil, "--all-files", "--jobs", jobs, "--format", format)
			assert.Equal(t, one, many, "-j %s --format %s", jobs, format)
		}
		assert.Equal(t, ExitFindings, one.code)
	}
}

// A panic while checking one file is an internal error naming the file:
// exit 2, and the other files are still checked and reported.
func TestInternalErrorNamesFile(t *testing.T) {
	panicky := &analyzer.Rule{
		ID: "SGL999", Name: "panicky", Title: "Panics on boom.py", Doc: "test", Severity: analyzer.Error,
		Run: func(p *analyzer.Pass) error {
			if strings.HasSuffix(p.File.Path, "boom.py") {
				var m map[string]int
				m["x"]++
			}
			return nil
		},
	}
	saved := registry
	registry = func() []*analyzer.Rule { return append(rules.All(), panicky) }
	t.Cleanup(func() { registry = saved })

	dir := t.TempDir()
	putFile(t, dir, "boom.py", "x = 1\n")
	putFile(t, dir, "bad.py", "x = = 1\n")
	o := runMain(t, dir, nil)
	assert.Equal(t, ExitError, o.code)
	assert.Equal(t, "bad.py:1:5: SGL000 syntax error: unexpected `=`\nFound 1 problem in 1 file: 1 error (SGL000); 1 file hit an internal error.\n", o.stdout)
	assert.True(t, strings.HasPrefix(o.stderr, "sglint: boom.py: internal error: rule SGL999 panicked: assignment to entry in nil map\n"), o.stderr)
	assert.Contains(t, o.stderr, "is a bug in sglint")

	o = runMain(t, dir, nil, "--exit-zero", "--format", "sarif")
	assert.Equal(t, ExitError, o.code, "--exit-zero does not hide internal errors")
	assert.Contains(t, o.stdout, `"executionSuccessful": false`)
}

func TestRulesCommand(t *testing.T) {
	o := runMain(t, "", nil, "rules")
	assert.Equal(t, ExitClean, o.code)
	lines := strings.Split(strings.TrimSuffix(o.stdout, "\n"), "\n")
	require.Len(t, lines, 1+len(rules.All()))
	assert.Regexp(t, `^ID\s+NAME\s+SEVERITY\s+DEFAULT\s+RECORD\s+TITLE$`, lines[0])
	assert.Regexp(t, `^SGL000\s+syntax-error\s+error\s+on\s+-\s+File sglint cannot parse \(not a full syntax check\)$`, lines[1])
	assert.Regexp(t, `\nSGL001\s+kv-send-without-readiness-guard\s+error\s+on\s+795554d942550d42\s+KV send path`, o.stdout,
		"the record each rule derives from")

	o = runMain(t, "", nil, "rules", "extra")
	assert.Equal(t, ExitError, o.code)
}

func TestExplainCommand(t *testing.T) {
	o := runMain(t, "", nil, "explain", "SGL000")
	assert.Equal(t, ExitClean, o.code)
	assert.True(t, strings.HasPrefix(o.stdout, "# syntax-error (SGL000)\n\nFile sglint cannot parse (not a full syntax check).\n\nSeverity: error.\n\n## What it does\n"), o.stdout)
	assert.Contains(t, o.stdout, "## Known limits")
	assert.Equal(t, o, runMain(t, "", nil, "explain", "sgl000"))
	assert.Equal(t, o, runMain(t, "", nil, "explain", "syntax-error"))

	const noRecords = "Run 'sglint rules' for the list. No error records are loaded, so record ids and slugs are not known: " +
		"load them with --records PATH, or records = [\"records\"] under [tool.sglint].\n"
	o = runMain(t, "", nil, "explain", "SGL0000")
	assert.Equal(t, outcome{ExitError, "", "sglint: unknown rule \"SGL0000\" (did you mean SGL000?)\n" + noRecords}, o)
	o = runMain(t, "", nil, "explain", "E501")
	assert.Equal(t, outcome{ExitError, "", "sglint: unknown rule \"E501\"\n" + noRecords}, o)
	o = runMain(t, "", nil, "explain")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "explain takes one rule ID or name")

	// An off-by-default rule is added to the others: SGL100 alone (with
	// --select) would judge no rule's suppressions.
	o = runMain(t, "", nil, "explain", "SGL100")
	assert.Contains(t, o.stdout, "Off by default: add it to the default rules with --extend-select SGL100")

	// The start of one rule's name finds it; a start shared by several does
	// not (issue 31).
	o = runMain(t, "", nil, "explain", "unchecked-peer")
	assert.Equal(t, ExitClean, o.code, o.stderr)
	assert.Contains(t, o.stdout, "# unchecked-peer-lookup (SGL004)")
	o = runMain(t, "", nil, "explain", "kv-")
	assert.Equal(t, ExitError, o.code)

	// A rule says which fields of its record it comes from.
	o = runMain(t, "", nil, "explain", "SGL005")
	assert.Contains(t, o.stdout, "Derived from error record d0bf6111ca6909b6, from its tryCatchPattern and tags.")

	// The shared KV scope says what a send path is, and who reads it.
	o = runMain(t, "", nil, "explain", "kv-scope")
	assert.Equal(t, ExitClean, o.code, o.stderr)
	assert.True(t, strings.HasPrefix(o.stdout, "# kv-scope\n\nWhich code is KV transfer code, and where its KV paths start.\n\n"+
		"Read by: SGL001 SGL002 SGL003 SGL004 SGL005 SGL006 SGL007 SGL008 SGL010. Configured in [tool.sglint.kv-scope].\n"), o.stdout)
	assert.Contains(t, o.stdout, "| scheduler call |", "the entry kinds and what an escape stops")
	assert.Contains(t, o.stdout, "BaseKVManager")
	o = runMain(t, "", nil, "explain", "kv-scop")
	assert.Contains(t, o.stderr, "(did you mean kv-scope?)")
}

// The KV scope is one table for every KV rule; per-rule entry options are
// gone, and a rule table that tries them says so.
func TestKVScopeConfig(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[tool.sglint.kv-scope]\nbases = [\"MyBase\"]\nentry-patterns = [\"push_*\"]\n")
	putFile(t, dir, "conn.py", "class MyBase:\n    pass\n\n\nclass Mgr(MyBase):\n"+
		"    def __init__(self):\n        self.peers = {}\n\n"+
		"    def add(self, k, v):\n        self.peers[k] = v\n\n"+
		"    def push_chunk(self, k):\n        return self.peers[k]\n\n"+
		"    def send_chunk(self, k):\n        return self.peers[k]\n")
	o := runMain(t, dir, nil, "--select", "SGL004", "--format", "json", ".")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Contains(t, o.stdout, `"function": "Mgr.push_chunk"`)
	assert.NotContains(t, o.stdout, `"function": "Mgr.send_chunk"`, "send_* is no longer an entry pattern here")

	putFile(t, dir, "pyproject.toml", "[tool.sglint.rules.SGL004]\nentry-patterns = [\"push_*\"]\n")
	o = runMain(t, dir, nil, ".")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "tool.sglint.rules.SGL004: rule SGL004 (unchecked-peer-lookup) has no options")
}

func TestVersionCommand(t *testing.T) {
	o := runMain(t, "", nil, "version")
	assert.Equal(t, outcome{ExitClean, "sglint 0.0.0-test\n", ""}, o)
	assert.Equal(t, o, runMain(t, "", nil, "--version"))
	assert.Equal(t, ExitError, runMain(t, "", nil, "version", "x").code)
}

func TestCheckSubcommandForPathsNamedLikeCommands(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "rules/r.py", "x = = 1\n")
	o := runMain(t, dir, nil, "check", "--all-files", "rules")
	assert.Equal(t, ExitFindings, o.code)
	assert.Contains(t, o.stdout, "rules/r.py:1:5:")
	assert.Equal(t, o, runMain(t, dir, nil, "--all-files", "./rules"))
}

// By default a run analyses the KV transfer code and what it calls, and
// SGL000 reports only on the files analysed; a file named on the command
// line is always analysed, and --all-files analyses every file.
func TestOnlyTheKVCodeIsAnalysedByDefault(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[project]\nname = \"p\"\n")
	putFile(t, dir, "disagg/base.py", "class BaseKVManager:\n    pass\n")
	putFile(t, dir, "disagg/conn.py", "from disagg.base import BaseKVManager\n\n\n"+
		"class FastKVManager(BaseKVManager):\n    def send_kvcache(self, x):\n        return x = 1\n")
	putFile(t, dir, "models/llama.py", "def forward(x):\n    return x = 2\n")
	o := runMain(t, dir, nil, ".")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, "disagg/conn.py:6:16: SGL000 syntax error: cannot parse `x =`\nFound 1 problem in 1 file: 1 error (SGL000); 1 file only read, not analysed (not KV code; --all-files analyses them).\n", o.stdout)

	o = runMain(t, dir, nil, "models/llama.py", ".")
	assert.Contains(t, o.stdout, "models/llama.py:2:12: SGL000", "a named file is analysed")
	o = runMain(t, dir, nil, "--all-files", ".")
	assert.Contains(t, o.stdout, "models/llama.py:2:12: SGL000")
	assert.Contains(t, o.stdout, "Found 2 problems in 2 files")
	o = runMain(t, dir, nil, "--select", "SGL000", ".")
	assert.Contains(t, o.stdout, "Found 2 problems in 2 files", "file-local rules alone read every file")
}

// A demand-driven run loads the same files and reports the same findings
// for any number of workers.
func TestDemandDrivenDeterministicAcrossJobs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	one := runMain(t, root, nil, "--no-cache", "-j", "1", "--format", "json", "--records", "testdata/example/records", "testdata/example")
	require.Equal(t, ExitFindings, one.code, one.stderr)
	for _, jobs := range []string{"2", "3", "8"} {
		many := runMain(t, root, nil, "--no-cache", "-j", jobs, "--format", "json", "--records", "testdata/example/records", "testdata/example")
		assert.Equal(t, one, many, "-j %s", jobs)
	}
}

// A build from a clone says devel-COMMIT, as docs/cli.md promises, not
// Go's pseudo-version; a tag stays as it is.
func TestPseudoVersionIsDevelCommit(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20261206202950-f550f2ae0ca3":        "f550f2ae0ca3",
		"v0.0.0-20261206202950-f550f2ae0ca3+dirty":  "f550f2ae0ca3+dirty",
		"v1.2.4-0.20261206202950-f550f2ae0ca3":      "f550f2ae0ca3",
		"v1.3.0-rc.1.0.20261206202950-f550f2ae0ca3": "f550f2ae0ca3",
		"v1.2.3": "",
	} {
		m := pseudoVersion().FindStringSubmatch(v)
		if want == "" {
			assert.Nil(t, m, v)
			continue
		}
		require.NotNil(t, m, v)
		assert.Equal(t, want, m[1]+m[2], v)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
	"github.com/sglint/sglint/rules"
)

type callOptions struct {
	Names []string `toml:"names"`
}

// callRule reports calls to the functions its options name (default:
// send), so that config tests can see rule options take effect.
var callRule = &analyzer.Rule{
	ID: "SGL990", Name: "named-call", Title: "Calls a configured function", Doc: "test",
	Options: func() any { return &callOptions{Names: []string{"send"}} },
	Run: func(pass *analyzer.Pass) error {
		names := pass.Options().(*callOptions).Names
		t := pass.File.Tree()
		for i := 0; i < t.Len(); i++ {
			n := syntax.NodeID(i)
			if t.Kind(n) != syntax.Call {
				continue
			}
			for _, name := range names {
				if t.TextIs(t.Field(n, syntax.FFunction), name) {
					pass.Reportf(n, "call to %s", name)
				}
			}
		}
		return nil
	},
}

// subclassRule reports a class whose base, defined in any loaded file of
// the project (reported on or context), has a method send_kvcache: a
// finding that depends on another file.
var subclassRule = &analyzer.Rule{
	ID: "SGL991", Name: "sender-subclass", Title: "Subclasses a sender", Doc: "test",
	Run: func(pass *analyzer.Pass) error {
		senders := map[string]string{} // class name -> path
		for _, f := range pass.Project.Files {
			t := f.Tree()
			for i := 0; i < t.Len(); i++ {
				n := syntax.NodeID(i)
				if t.Kind(n) != syntax.FunctionDefinition || !t.TextIs(t.Field(n, syntax.FName), "send_kvcache") {
					continue
				}
				if c := t.Ancestor(n, syntax.ClassDefinition); c != syntax.NoNode {
					senders[t.Text(t.Field(c, syntax.FName))] = f.Path
				}
			}
		}
		t := pass.File.Tree()
		for i := 0; i < t.Len(); i++ {
			n := syntax.NodeID(i)
			if t.Kind(n) != syntax.ClassDefinition {
				continue
			}
			if bases := t.Field(n, syntax.FSuperclasses); bases != syntax.NoNode {
				for b := range t.NamedChildren(bases) {
					if path, ok := senders[t.Text(b)]; ok {
						pass.Reportf(t.Field(n, syntax.FName), "subclasses %s from %s", t.Text(b), path)
					}
				}
			}
		}
		return nil
	},
}

func withTestRules(t *testing.T) {
	t.Helper()
	saved := registry
	registry = func() []*analyzer.Rule { return append(rules.All(), callRule, subclassRule) }
	t.Cleanup(func() { registry = saved })
}

const pyproject = `[project]
name = "demo"

[tool.sglint]
ignore = ["SGL991"]
exclude = ["vendor/**"]

[tool.sglint.per-file-ignores]
"tests/**" = ["SGL990"]

[tool.sglint.rules.SGL990]
names = ["send", "transfer"]
`

func adoptionProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", pyproject)
	putFile(t, dir, "pkg/conn.py", "send(1)\ntransfer(2)\nrecv(3)\n")
	putFile(t, dir, "tests/test_conn.py", "send(1)\n")
	putFile(t, dir, "vendor/lib.py", "send(1)\n")
	return dir
}

func TestConfigFromPyproject(t *testing.T) {
	withTestRules(t)
	dir := adoptionProject(t)
	o := runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitFindings, "pkg/conn.py:1:1: SGL990 call to send\n" +
		"pkg/conn.py:2:1: SGL990 call to transfer\nFound 2 problems in 1 file: 2 warnings (SGL990 ×2).\n", ""}, o,
		"rule options, per-file-ignores and exclude from [tool.sglint]")

	// Found from a subdirectory too, with globs still relative to the
	// config's directory.
	o = runMain(t, filepath.Join(dir, "pkg"), nil, "..")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, "conn.py:1:1: SGL990 call to send\nconn.py:2:1: SGL990 call to transfer\n"+
		"Found 2 problems in 1 file: 2 warnings (SGL990 ×2).\n", o.stdout, "paths relative to the working directory")
}

func TestConfigOverriddenByFlags(t *testing.T) {
	withTestRules(t)
	dir := adoptionProject(t)
	// --select replaces the config's selection, --ignore adds to it.
	o := runMain(t, dir, nil, "--select", "SGL000")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	o = runMain(t, dir, nil, "--ignore", "SGL990")
	assert.Equal(t, outcome{ExitClean, "Nothing was analysed; 2 files only read, not analysed (not KV code; --all-files analyses them).\n", ""}, o)
	// --exclude adds to the config's excludes; --extend-select re-enables
	// what the config ignores.
	o = runMain(t, dir, nil, "--exclude", "conn.py", "--extend-select", "SGL991")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)

	// --config names another file, whose keys are top-level.
	putFile(t, dir, "ci/sglint.toml", "[rules.SGL990]\nnames = [\"recv\"]\n")
	o = runMain(t, dir, nil, "--config", "ci/sglint.toml", "pkg")
	assert.Equal(t, outcome{ExitFindings, "pkg/conn.py:3:1: SGL990 call to recv\nFound 1 problem in 1 file: 1 warning (SGL990).\n", ""}, o)
}

func TestConfigRespectGitignore(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, ".gitignore", "gen/\n")
	putFile(t, dir, "gen/out.py", "send(1)\n")
	putFile(t, dir, "ok.py", "x = 1\n")
	o := runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	putFile(t, dir, "sglint.toml", "respect-gitignore = false\n")
	o = runMain(t, dir, nil)
	assert.Equal(t, ExitFindings, o.code)
	assert.Contains(t, o.stdout, "gen/out.py:1:1: SGL990")
	o = runMain(t, dir, nil, "--respect-gitignore=true")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o, "the flag wins over the file")
}

func TestConfigErrorsExit2(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nselct = [\"SGL990\"]\n\n[tool.sglint.rules.SGL990]\nnames = \"send\"\n")
	putFile(t, dir, "a.py", "send(1)\n")
	o := runMain(t, dir, nil)
	file := "pyproject.toml" // found by walking up, shown relative to the working directory
	assert.Equal(t, outcome{ExitError, "", "sglint: " + file + ":2:1: tool.sglint.selct: unknown key (did you mean \"select\"?)\n" +
		"sglint: " + file + ":5:1: tool.sglint.rules.SGL990.names: expected an array of strings, got a string\n"}, o)

	o = runMain(t, dir, nil, "--config", "missing.toml")
	assert.Equal(t, outcome{ExitError, "", "sglint: missing.toml: cannot read config: no such file or directory\n"}, o)
}

func TestBaselineFlags(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "pkg/conn.py", "def push():\n    send(1)\n    send(1)\n")
	o := runMain(t, dir, nil, "--write-baseline", "sglint-baseline.json")
	assert.Equal(t, outcome{ExitClean, "", "sglint: wrote sglint-baseline.json: 2 finding(s) in 1 entry\n"}, o)

	o = runMain(t, dir, nil, "--baseline", "sglint-baseline.json")
	assert.Equal(t, outcome{ExitClean, "No problems found in 1 file; the baseline hid 2 findings.\n", "sglint: baseline sglint-baseline.json hid 2 finding(s)\n"}, o)

	// Lines added above and one old finding removed: one hidden, one stale,
	// the new call reported.
	putFile(t, dir, "pkg/conn.py", "import os\n\n\ndef push():\n    send(1)\n    send(2)\n")
	o = runMain(t, dir, nil, "--baseline", "sglint-baseline.json")
	assert.Equal(t, ExitFindings, o.code)
	assert.Equal(t, "pkg/conn.py:6:5: SGL990 call to send\nFound 1 problem in 1 file: 1 warning (SGL990); the baseline hid 1 finding.\n", o.stdout)
	assert.Equal(t, "sglint: baseline sglint-baseline.json hid 1 finding(s)\n"+
		"sglint: warning: stale baseline entry (fixed or changed; rewrite with --write-baseline): SGL990 pkg/conn.py in push (line hash "+
		lineHash(t, "send(1)")+") x1: call to send\n", o.stderr)

	// SARIF keeps the hidden finding, suppressed as external, so that code
	// scanning does not close its alert as fixed (issue 31).
	o = runMain(t, dir, nil, "--baseline", "sglint-baseline.json", "--format", "sarif")
	assert.Equal(t, ExitFindings, o.code)
	var log struct {
		Runs []struct {
			Results []struct {
				Region    struct{} `json:"-"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Suppressions []struct{ Kind, Justification string } `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &log))
	require.Len(t, log.Runs[0].Results, 2)
	assert.Equal(t, 5, log.Runs[0].Results[0].Locations[0].PhysicalLocation.Region.StartLine)
	assert.Equal(t, []struct{ Kind, Justification string }{{"external", "in the baseline sglint-baseline.json"}},
		log.Runs[0].Results[0].Suppressions)
	assert.Empty(t, log.Runs[0].Results[1].Suppressions, "the new finding is not suppressed")

	// Checking another file only: the entry is out of scope, not stale.
	putFile(t, dir, "pkg/other.py", "x = 1\n")
	o = runMain(t, dir, nil, "--baseline", "sglint-baseline.json", "pkg/other.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)

	o = runMain(t, dir, nil, "--baseline", "nope.json")
	assert.Equal(t, outcome{ExitError, "", "sglint: nope.json: cannot read baseline: no such file or directory\n"}, o)
	o = runMain(t, dir, nil, "--baseline", "a.json", "--write-baseline", "b.json")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "--baseline and --write-baseline cannot be combined")
}

func lineHash(t *testing.T, line string) string {
	t.Helper()
	dir := t.TempDir()
	putFile(t, dir, "x.py", line+"\n")
	o := runMain(t, dir, nil, "--write-baseline", "b.json")
	require.Equal(t, ExitClean, o.code, o.stderr)
	b, err := os.ReadFile(filepath.Join(dir, "b.json"))
	require.NoError(t, err)
	_, after, _ := strings.Cut(string(b), `"line_hash": "`)
	return after[:16]
}

func TestStatistics(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "a.py", "send(1)\nsend(2)\nx = = 1\n")
	putFile(t, dir, "b.py", "send(3)\n")
	o := runMain(t, dir, nil, "--statistics")
	assert.Equal(t, outcome{ExitFindings, "3  SGL990  named-call\n1  SGL000  syntax-error\nFound 4 problems in 2 files: 1 error (SGL000), 3 warnings (SGL990 ×3).\n", ""}, o)
	o = runMain(t, dir, nil, "--statistics", "--format", "json", "--exit-zero")
	assert.Equal(t, ExitClean, o.code)
	assert.JSONEq(t, `[{"rule":"SGL990","name":"named-call","count":3},{"rule":"SGL000","name":"syntax-error","count":1}]`, o.stdout)
	o = runMain(t, dir, nil, "--statistics", "--format", "sarif")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "--statistics prints text or json, not sarif")
}

func TestStdinFilename(t *testing.T) {
	withTestRules(t)
	dir := adoptionProject(t)
	// The config is found from the named path and its per-file-ignores
	// apply to it.
	o := runMain(t, dir, strings.NewReader("send(1)\n"), "--stdin-filename", "tests/test_new.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	o = runMain(t, dir, strings.NewReader("transfer(1)\n"), "--stdin-filename", "pkg/new.py")
	assert.Equal(t, outcome{ExitFindings, "pkg/new.py:1:1: SGL990 call to transfer\nFound 1 problem in 1 file: 1 warning (SGL990).\n", ""}, o)
	// The editor's buffer replaces the file on disk: findings come from
	// stdin, and the on-disk copy is not loaded twice.
	o = runMain(t, dir, strings.NewReader("recv(1)\n"), "--stdin-filename", "pkg/conn.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)

	o = runMain(t, dir, strings.NewReader(""), "--stdin-filename", "a.py", "pkg")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "--stdin-filename reads the source from standard input")
}

// TestContextFromUnchangedFiles is pre-commit's case: only the changed
// file is passed, but a finding in it depends on a base class in a file
// that did not change. The rest of the project is loaded as context and
// never reported on, even where it has findings of its own.
func TestContextFromUnchangedFiles(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[project]\nname = \"demo\"\n")
	putFile(t, dir, "pkg/common/conn.py", "class CommonKVSender:\n    def send_kvcache(self, req):\n        send(req)\n")
	putFile(t, dir, "pkg/mori/conn.py", "from pkg.common.conn import CommonKVSender\n\n\nclass MoriKVSender(CommonKVSender):\n    pass\n")
	putFile(t, dir, "pkg/broken.py", "x = = 1\n")

	o := runMain(t, dir, nil, "pkg/mori/conn.py")
	assert.Equal(t, outcome{ExitFindings, "pkg/mori/conn.py:4:7: SGL991 subclasses CommonKVSender from pkg/common/conn.py\n" +
		"Found 1 problem in 1 file: 1 warning (SGL991).\n", ""}, o)

	// The same finding with the file in stdin (an editor).
	src, err := os.ReadFile(filepath.Join(dir, "pkg/mori/conn.py"))
	require.NoError(t, err)
	o = runMain(t, dir, strings.NewReader(string(src)), "--stdin-filename", "pkg/mori/conn.py")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Contains(t, o.stdout, "pkg/mori/conn.py:4:7: SGL991 subclasses CommonKVSender")

	// Without a project marker there is no project to load: the base is
	// unknown and nothing is reported (a false negative, never a guess).
	require.NoError(t, os.Remove(filepath.Join(dir, "pyproject.toml")))
	o = runMain(t, dir, nil, "pkg/mori/conn.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
}

func TestAddNoqa(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "pkg/conn.py", "import os\r\nsend(1)  # TODO\r\nx = (\r\n    send(2))\r\n")
	putFile(t, dir, "pkg/other.py", "s = '''\nsend(3)'''\nsend(4)  # noqa: SGL000\n")
	require.NoError(t, os.Chmod(filepath.Join(dir, "pkg/conn.py"), 0o750))
	putFile(t, dir, "pkg/clean.py", "x = 1\n")
	cleanInfo, err := os.Stat(filepath.Join(dir, "pkg/clean.py"))
	require.NoError(t, err)

	o := runMain(t, dir, nil, "--add-noqa")
	assert.Equal(t, ExitClean, o.code, o.stderr)
	assert.Empty(t, o.stdout)
	assert.Equal(t, "sglint: added 3 noqa directive(s) in 2 file(s)\n", o.stderr)
	b, err := os.ReadFile(filepath.Join(dir, "pkg/conn.py"))
	require.NoError(t, err)
	assert.Equal(t, "import os\r\nsend(1)  # TODO  # noqa: SGL990\r\nx = (\r\n    send(2))  # noqa: SGL990\r\n", string(b))
	b, err = os.ReadFile(filepath.Join(dir, "pkg/other.py"))
	require.NoError(t, err)
	assert.Equal(t, "s = '''\nsend(3)'''\nsend(4)  # noqa: SGL000, SGL990\n", string(b), "calls inside strings are not calls; codes merge")
	fi, err := os.Stat(filepath.Join(dir, "pkg/conn.py"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o750), fi.Mode().Perm(), "mode kept")
	fi, err = os.Stat(filepath.Join(dir, "pkg/clean.py"))
	require.NoError(t, err)
	assert.Equal(t, cleanInfo.ModTime(), fi.ModTime(), "files without findings are not touched")

	o = runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
	o = runMain(t, dir, nil, "--add-noqa")
	assert.Equal(t, outcome{ExitClean, "", "sglint: added 0 noqa directive(s) in 0 file(s)\n"}, o)

	// A finding whose line cannot take a comment is reported and left.
	putFile(t, dir, "pkg/cont.py", "x = send(1) + \\\n    2\n")
	o = runMain(t, dir, nil, "--add-noqa")
	assert.Equal(t, outcome{ExitClean, "", "sglint: pkg/cont.py:1: warning: no noqa added: the line ends with a backslash continuation\n" +
		"sglint: added 0 noqa directive(s) in 0 file(s)\n"}, o)

	o = runMain(t, dir, strings.NewReader("send(1)\n"), "--add-noqa", "-")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "--add-noqa writes to the checked files: it cannot read standard input")
}

func TestUnusedNoqaRule(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	putFile(t, dir, "a.py", "send(1)  # noqa: SGL990\nx = 1  # noqa: SGL990, E501\n")
	o := runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o, "off by default")
	o = runMain(t, dir, nil, "--extend-select", "SGL100")
	assert.Equal(t, outcome{ExitFindings, "a.py:2:8: SGL100 unused `noqa` code SGL990\nFound 1 problem in 1 file: 1 warning (SGL100).\n", ""}, o)
	o = runMain(t, dir, nil, "--select", "SGL1")
	assert.Equal(t, ExitClean, o.code, "a prefix does not enable it")
	assert.Equal(t, "All checks passed.\n", o.stdout)
	assert.Contains(t, o.stderr, "no rule is selected")
	putFile(t, dir, "sglint.toml", "extend-select = [\"unused-noqa\"]\n[per-file-ignores]\n\"b.py\" = [\"SGL100\"]\n")
	putFile(t, dir, "b.py", "x = 1  # noqa: SGL990\n")
	o = runMain(t, dir, nil)
	assert.Equal(t, outcome{ExitFindings, "a.py:2:8: SGL100 unused `noqa` code SGL990\nFound 1 problem in 1 file: 1 warning (SGL100).\n", ""}, o,
		"enabled by the config; per-file-ignores apply to it")
}

// TestContextWithRealRule is pre-commit's case with a shipped rule: only the
// subclass file changed, but SGL001 needs the registration state that its
// base class (in an unchanged file) initialises empty and fills.
func TestContextWithRealRule(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "pyproject.toml", "[project]\nname = \"demo\"\n")
	putFile(t, dir, "kv/base.py", "class BaseKVManager:\n    pass\n")
	putFile(t, dir, "kv/registry.py", "from kv.base import BaseKVManager\n\n\nclass Registry(BaseKVManager):\n"+
		"    def __init__(self, args, engine):\n"+
		"        self.kv_args = args\n"+
		"        self.engine = engine\n"+
		"        self.kv_mem_descs = []\n"+
		"        self._register()\n\n"+
		"    def _register(self):\n"+
		"        for ptr in self.kv_args.kv_data_ptrs:\n"+
		"            self.kv_mem_descs.append(self.engine.register(ptr))\n")
	putFile(t, dir, "kv/sender.py", "from kv.registry import Registry\n\n\n"+
		"class Sender(Registry):\n"+
		"    def send_first(self, pages):\n"+
		"        return self.engine.write(self.kv_mem_descs[0], pages)\n")

	o := runMain(t, dir, nil, "--select", "SGL001", "kv/sender.py")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Contains(t, o.stdout, "kv/sender.py:6:34: SGL001 `self.kv_mem_descs` may be empty")
	assert.Contains(t, o.stdout, "Found 1 problem in 1 file: 1 error (SGL001).")
	assert.NotContains(t, o.stdout, "kv/registry.py")

	// Without the base class's file the state is unknown: no finding.
	require.NoError(t, os.Remove(filepath.Join(dir, "kv/registry.py")))
	o = runMain(t, dir, nil, "--select", "SGL001", "kv/sender.py")
	assert.Equal(t, outcome{ExitClean, "All checks passed.\n", ""}, o)
}

// Issue 31: --write-baseline creates the directory it is asked to write in.
func TestWriteBaselineMakesItsDirectory(t *testing.T) {
	dir := t.TempDir()
	putFile(t, dir, "x.py", "x = 1\n")
	o := runMain(t, dir, nil, "--write-baseline", "ci/baselines/sglint.json")
	require.Equal(t, ExitClean, o.code, o.stderr)
	assert.FileExists(t, filepath.Join(dir, "ci", "baselines", "sglint.json"))
}

// Issue 31, item 3: --fix removes unused noqa codes (SGL100's fixes),
// keeps the codes that are used and other linters' codes, drops a comment
// left empty and a file-level directive's line, and reports what is left;
// --add-noqa never answers an unused noqa with another one.
func TestFixUnusedNoqa(t *testing.T) {
	withTestRules(t)
	dir := t.TempDir()
	src := "send(1)  # noqa: SGL990, SGL991\nx = 1  # noqa: SGL990, E501\ny = 2  # noqa: SGL990\n# sglint: noqa: SGL991\nsend(2)\n"
	putFile(t, dir, "a.py", src)

	o := runMain(t, dir, nil, "--add-noqa", "--extend-select", "SGL100")
	assert.Equal(t, ExitClean, o.code, o.stderr)
	b, err := os.ReadFile(filepath.Join(dir, "a.py"))
	require.NoError(t, err)
	assert.Equal(t, "send(1)  # noqa: SGL990, SGL991\nx = 1  # noqa: SGL990, E501\ny = 2  # noqa: SGL990\n# sglint: noqa: SGL991\nsend(2)  # noqa: SGL990\n",
		string(b), "the new finding gets its noqa; the unused ones are not answered with SGL100")
	putFile(t, dir, "a.py", src)

	o = runMain(t, dir, nil, "--fix")
	assert.Equal(t, ExitFindings, o.code, o.stderr)
	assert.Equal(t, "sglint: fixed 4 finding(s) in 1 file(s)\n", o.stderr)
	assert.Equal(t, "a.py:4:1: SGL990 call to send\nFound 1 problem in 1 file: 1 warning (SGL990).\n", o.stdout, "what is left")
	b, err = os.ReadFile(filepath.Join(dir, "a.py"))
	require.NoError(t, err)
	assert.Equal(t, "send(1)  # noqa: SGL990\nx = 1  # noqa: E501\ny = 2\nsend(2)\n", string(b))

	o = runMain(t, dir, nil, "--fix", "-")
	assert.Equal(t, ExitError, o.code)
	assert.Contains(t, o.stderr, "--fix writes to the checked files")

	// The run after the fixes says what the first pass said once, not
	// twice, and keeps SGL100 on for what could not be fixed.
	putFile(t, dir, "a.py", src)
	putFile(t, dir, "blob.py", "x = 1\x00\n")
	o = runMain(t, dir, nil, "--fix", "--stats")
	assert.Equal(t, 1, strings.Count(o.stderr, "blob.py"), o.stderr)
	assert.Equal(t, 1, strings.Count(o.stderr, "sglint: fixed 4 finding(s) in 1 file(s)"), o.stderr)
	assert.Equal(t, 1, strings.Count(o.stderr, "sglint: stats:"), o.stderr)
}

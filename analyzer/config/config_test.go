package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
)

// sendOptions is a rule's option schema, shaped like what SGL001 will need.
type sendOptions struct {
	SendEntries []string `toml:"send-entries"`
	MaxDepth    int      `toml:"max-depth"`
	Strict      bool     `toml:"strict"`
	Pattern     *regexpText
	Groups      map[string][]string `toml:"groups"`
}

// regexpText exercises encoding.TextUnmarshaler fields.
type regexpText struct{ *regexp.Regexp }

func (r *regexpText) UnmarshalText(b []byte) error {
	re, err := regexp.Compile(string(b))
	r.Regexp = re
	return err
}

func (o *sendOptions) Validate() error {
	if o.MaxDepth < 0 {
		return fmt.Errorf("max-depth must be >= 0, got %d", o.MaxDepth)
	}
	return nil
}

func testRules() []*analyzer.Rule {
	run := func(*analyzer.Pass) error { return nil }
	return []*analyzer.Rule{
		{ID: "SGL000", Name: "syntax-error", Title: "t", Doc: "d", Run: run},
		{ID: "SGL001", Name: "kv-send-without-guard", Title: "t", Doc: "d", Run: run,
			Options: func() any { return &sendOptions{SendEntries: []string{"send"}, MaxDepth: 3} }},
		{ID: "SGL002", Name: "unchecked-status", Title: "t", Doc: "d", Run: run,
			MovedOptions: map[string]string{"raising": "[tool.sglint.kv-scope] raising"}},
		{ID: "SGL010", Name: "other-thing", Title: "t", Doc: "d", Run: run},
		{ID: "SGL100", Name: "unused-noqa", Title: "t", Doc: "d", Run: run, DefaultOff: true},
	}
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestLoadPyprojectAllKeys(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "pyproject.toml", `
[project]
name = "demo"

[tool.ruff]
line-length = 100

[tool.sglint]
select = ["SGL0"]
extend-select = ["SGL100"]
ignore = ["SGL002"]
exclude = ["third_party/**"]
extend-exclude = ["gen/*.py"]
respect-gitignore = false
records = ["records/kv.md"]

[tool.sglint.per-file-ignores]
"tests/**/*.py" = ["SGL001", "SGL01"]
"__init__.py" = ["SGL"]

[tool.sglint.rules.SGL001]
send-entries = ["send_kvcache", "send_aux"]
max-depth = 5
Pattern = "^send_"
groups = { a = ["x", "y"] }
`)
	c, err := Load(file, testRules())
	require.NoError(t, err)
	assert.Equal(t, file, c.File)
	assert.Equal(t, dir, c.Root)
	assert.Equal(t, analyzer.Selection{Select: []string{"SGL0"}, ExtendSelect: []string{"SGL100"}, Ignore: []string{"SGL002"}}, c.Selection)
	assert.Equal(t, []string{"third_party/**"}, c.Exclude)
	assert.Equal(t, []string{"gen/*.py"}, c.ExtendExclude)
	assert.False(t, c.RespectGitignore)
	assert.Equal(t, []string{filepath.Join(dir, "records", "kv.md")}, c.Records)
	assert.Equal(t, []PerFileIgnore{
		{Pattern: "__init__.py", Rules: []string{"SGL000", "SGL001", "SGL002", "SGL010", "SGL100"}},
		{Pattern: "tests/**/*.py", Rules: []string{"SGL001", "SGL010"}},
	}, c.PerFileIgnores)

	opts, ok := c.RuleOptions["SGL001"].(*sendOptions)
	require.True(t, ok, "decoded into the rule's own type")
	assert.Equal(t, []string{"send_kvcache", "send_aux"}, opts.SendEntries)
	assert.Equal(t, 5, opts.MaxDepth)
	assert.False(t, opts.Strict, "absent keys keep their defaults")
	assert.True(t, opts.Pattern.MatchString("send_x"))
	assert.Equal(t, map[string][]string{"a": {"x", "y"}}, opts.Groups)
	assert.Len(t, c.RuleOptions, 1, "unconfigured rules get no entry (they use defaults)")
}

func TestLoadStandaloneTopLevel(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "conf/sglint.toml", `
select = []
[rules.SGL001]
strict = true
`)
	c, err := Load(file, testRules())
	require.NoError(t, err)
	assert.NotNil(t, c.Selection.Select, "kept as written; analyzer.SelectLayers reads an empty select as the defaults")
	assert.Empty(t, c.Selection.Select)
	assert.True(t, c.RespectGitignore, "default")
	assert.Equal(t, filepath.Join(dir, "conf"), c.Root)
	opts := c.RuleOptions["SGL001"].(*sendOptions)
	assert.True(t, opts.Strict)
	assert.Equal(t, []string{"send"}, opts.SendEntries, "default kept")
}

// Each case is a bad [tool.sglint] body; the error must name the file, the
// line (counted in the whole pyproject.toml, whose [tool.sglint] header is
// line 1) and the key, with a suggestion where one is close.
func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string // each a full error line, after "<file>:"
	}{
		{"unknown key with suggestion", "selct = [\"SGL001\"]",
			[]string{`2:1: tool.sglint.selct: unknown key (did you mean "select"?)`}},
		{"unknown key far from all", "frobnicate = 1",
			[]string{`2:1: tool.sglint.frobnicate: unknown key`}},
		{"wrong type", "\nselect = \"SGL001\"",
			[]string{`3:1: tool.sglint.select: expected an array of strings, got a string`}},
		{"wrong element type on its own line", "ignore = [\n  \"SGL001\",\n  42,\n]",
			[]string{`4:3: tool.sglint.ignore[1]: expected a string, got an integer`}},
		{"wrong bool", "respect-gitignore = \"yes\"",
			[]string{`2:1: tool.sglint.respect-gitignore: expected a boolean, got a string`}},
		{"unknown selector", "extend-select = [\"SLG001\"]",
			[]string{`2:18: tool.sglint.extend-select[0]: unknown rule selector "SLG001" (did you mean "SGL001"?)`}},
		{"unknown rule options table", "[tool.sglint.rules.SGL-001]\nstrict = true",
			[]string{`2:20: tool.sglint.rules.SGL-001: unknown rule ID (did you mean "SGL001"?)`}},
		{"rule named, not ID", "[tool.sglint.rules.kv-send-without-guard]\nstrict = true",
			[]string{`2:20: tool.sglint.rules.kv-send-without-guard: rule options are keyed by rule ID: use SGL001`}},
		{"rule without options", "rules.SGL002.x = 1",
			[]string{`2:7: tool.sglint.rules.SGL002: rule SGL002 (unchecked-status) has no options`}},
		{"moved option key", "[tool.sglint.rules.SGL002]\nraising = [\"f\"]",
			[]string{`3:1: tool.sglint.rules.SGL002.raising: moved to [tool.sglint.kv-scope] raising (one setting for every rule that reads it)`}},
		{"unknown option key", "[tool.sglint.rules.SGL001]\nsend-entry = [\"a\"]",
			[]string{`3:1: tool.sglint.rules.SGL001.send-entry: unknown key (did you mean "send-entries"?)`}},
		{"option wrong type", "[tool.sglint.rules.SGL001]\nmax-depth = 2.5",
			[]string{`3:1: tool.sglint.rules.SGL001.max-depth: expected an integer, got a float`}},
		{"option text unmarshal error", "[tool.sglint.rules.SGL001]\nPattern = \"(\"",
			[]string{`3:1: tool.sglint.rules.SGL001.Pattern: error parsing regexp: missing closing ): ` + "`(`"}},
		{"option Validate error", "[tool.sglint.rules.SGL001]\nmax-depth = -1",
			[]string{`2:20: tool.sglint.rules.SGL001: max-depth must be >= 0, got -1`}},
		{"per-file-ignores bad id", "[tool.sglint.per-file-ignores]\n\"tests/*.py\" = [\"SGL999\"]",
			[]string{`3:17: tool.sglint.per-file-ignores."tests/*.py"[0]: unknown rule selector "SGL999"`}},
		{"per-file-ignores bad glob", "per-file-ignores = { \"a/[b\" = [\"SGL001\"] }",
			[]string{`2:22: tool.sglint.per-file-ignores."a/[b": invalid glob "a/[b"`}},
		{"several errors in file order", "select = [1]\nignor = []",
			[]string{`2:11: tool.sglint.select[0]: expected a string, got an integer`,
				`3:1: tool.sglint.ignor: unknown key (did you mean "ignore"?)`}},
		{"invalid TOML", "select = [\"SGL001\"\nignore = []",
			[]string{`3:1: invalid TOML: expected ',' or ']' after array value`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := write(t, t.TempDir(), "pyproject.toml", "[tool.sglint]\n"+tc.body+"\n")
			_, err := Load(file, testRules())
			require.Error(t, err)
			var es Errors
			require.True(t, errors.As(err, &es), "got %T: %v", err, err)
			var got []string
			for _, e := range es {
				got = append(got, strings.TrimPrefix(e.Error(), file+":"))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLoadMissingTable(t *testing.T) {
	file := write(t, t.TempDir(), "pyproject.toml", "[tool.ruff]\nx = 1\n")
	_, err := Load(file, testRules())
	require.EqualError(t, err, file+": no [tool.sglint] table")

	_, err = Load(filepath.Join(t.TempDir(), "nope.toml"), testRules())
	require.ErrorContains(t, err, "cannot read config: no such file or directory")
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	root := write(t, dir, "pyproject.toml", "[tool.sglint]\nselect = [\"SGL\"]\n")
	// A pyproject.toml without [tool.sglint] is skipped, like ruff does.
	write(t, dir, "pkg/pyproject.toml", "[project]\nname = \"x\"\n")
	py := write(t, dir, "pkg/sub/mod.py", "x = 1\n")

	got, err := Find(py)
	require.NoError(t, err)
	assert.Equal(t, root, got, "from a file")
	got, err = Find(filepath.Dir(py))
	require.NoError(t, err)
	assert.Equal(t, root, got, "from a directory")

	// sglint.toml wins over pyproject.toml in the same directory.
	standalone := write(t, dir, "pkg/sglint.toml", "")
	got, err = Find(py)
	require.NoError(t, err)
	assert.Equal(t, standalone, got)

	// A broken pyproject.toml met on the way up is an error with its line.
	write(t, dir, "pkg/sub/pyproject.toml", "[tool.sglint\n")
	_, err = Find(py)
	require.ErrorContains(t, err, filepath.Join(dir, "pkg/sub/pyproject.toml")+":1:")
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pyproject.toml", "[tool.sglint]\nignore = [\"SGL001\"]\n")
	flagFile := write(t, dir, "other/sglint.toml", "ignore = [\"SGL002\"]\n")

	c, err := Resolve("", dir, testRules())
	require.NoError(t, err)
	assert.Equal(t, []string{"SGL001"}, c.Selection.Ignore)

	c, err = Resolve(flagFile, dir, testRules())
	require.NoError(t, err)
	assert.Equal(t, []string{"SGL002"}, c.Selection.Ignore, "--config wins over discovery")

	c, err = Resolve("", t.TempDir(), testRules())
	require.NoError(t, err)
	assert.Empty(t, c.File, "no file: defaults")
	assert.True(t, c.RespectGitignore)
}

func TestPerFileIgnored(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "sglint.toml", `
[per-file-ignores]
"tests/**/*.py" = ["SGL001"]
"__init__.py" = ["SGL002"]
"python/sglang/srt/disaggregation/*/conn.py" = ["SGL01"]
`)
	c, err := Load(file, testRules())
	require.NoError(t, err)
	cases := []struct {
		path, id string
		want     bool
	}{
		{"tests/unit/test_a.py", "SGL001", true},
		{"tests/test_a.py", "SGL001", true},
		{"tests/test_a.py", "SGL002", false},
		{"src/tests/test_a.py", "SGL001", false},
		{"pkg/sub/__init__.py", "SGL002", true},
		{"__init__.py", "SGL002", true},
		{"pkg/__init__.py", "SGL001", false},
		{"python/sglang/srt/disaggregation/mori/conn.py", "SGL010", true},
		{"python/sglang/srt/disaggregation/mori/conn.py", "SGL001", false},
		{"python/sglang/srt/disaggregation/conn.py", "SGL010", false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, c.PerFileIgnored(filepath.Join(dir, tc.path), tc.id), "%s %s", tc.path, tc.id)
	}
	// Paths relative to the working directory resolve too.
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, filepath.Join(dir, "tests/x/y.py"))
	require.NoError(t, err)
	assert.True(t, c.PerFileIgnored(rel, "SGL001"))
	// Outside the root nothing matches "tests/**".
	assert.False(t, c.PerFileIgnored(filepath.Join(t.TempDir(), "tests/a.py"), "SGL001"))
}

// sharedEntries is options shared by several rules, embedded in each.
type sharedEntries struct {
	EntryPatterns []string `toml:"entry-patterns"`
	Entries       []string `toml:"entries"`
}

type embeddingOptions struct {
	sharedEntries
	Entries []string `toml:"entries"` // shadows the embedded field
	Depth   int      `toml:"depth"`
}

// The fields of an embedded struct are keys of the rule's own table; an
// outer field wins; unknown keys are still reported, with suggestions
// that include the embedded names.
func TestLoadEmbeddedOptions(t *testing.T) {
	rules := []*analyzer.Rule{{ID: "SGL003", Name: "peer", Title: "t", Doc: "d",
		Run: func(*analyzer.Pass) error { return nil }, Options: func() any { return &embeddingOptions{} }}}
	dir := t.TempDir()
	file := write(t, dir, "pyproject.toml", "[tool.sglint.rules.SGL003]\nentry-patterns = [\"send_*\"]\nentries = [\"A.b\"]\ndepth = 2\n")
	c, err := Load(file, rules)
	require.NoError(t, err)
	opts := c.RuleOptions["SGL003"].(*embeddingOptions)
	assert.Equal(t, []string{"send_*"}, opts.EntryPatterns)
	assert.Equal(t, []string{"A.b"}, opts.Entries)
	assert.Nil(t, opts.sharedEntries.Entries, "the outer field took the key")
	assert.Equal(t, 2, opts.Depth)

	file = write(t, dir, "pyproject.toml", "[tool.sglint.rules.SGL003]\nentry-patern = [\"x\"]\n")
	_, err = Load(file, rules)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `tool.sglint.rules.SGL003.entry-patern: unknown key (did you mean "entry-patterns"?)`)
}

// scopeOptions is a shared section's schema.
type scopeOptions struct {
	Bases []string `toml:"bases"`
}

func (o *scopeOptions) Validate() error {
	for _, b := range o.Bases {
		if b == "" {
			return errors.New("bases: empty name")
		}
	}
	return nil
}

// A section declared by rules is a table of its own, next to the keys of
// [tool.sglint]: decoded against its declaration once, whatever the
// number of rules that list it; errors name its keys.
func TestLoadSections(t *testing.T) {
	sec := &analyzer.Section{Key: "kv-scope", Title: "t", Doc: "d",
		Options: func() any { return &scopeOptions{Bases: []string{"Default"}} }}
	run := func(*analyzer.Pass) error { return nil }
	rules := []*analyzer.Rule{
		{ID: "SGL001", Name: "a", Title: "t", Doc: "d", Run: run, Sections: []*analyzer.Section{sec}},
		{ID: "SGL004", Name: "b", Title: "t", Doc: "d", Run: run, Sections: []*analyzer.Section{sec}},
	}
	dir := t.TempDir()
	file := write(t, dir, "pyproject.toml", "[tool.sglint]\nselect = [\"SGL\"]\n\n[tool.sglint.kv-scope]\nbases = [\"MyBase\"]\n")
	c, err := Load(file, rules)
	require.NoError(t, err)
	assert.Equal(t, []string{"MyBase"}, c.SectionOptions["kv-scope"].(*scopeOptions).Bases)
	assert.Equal(t, []string{"SGL"}, c.Selection.Select)

	file = write(t, dir, "pyproject.toml", "[tool.sglint]\n")
	c, err = Load(file, rules)
	require.NoError(t, err)
	assert.Empty(t, c.SectionOptions, "absent: the rules use the section's defaults")

	for body, want := range map[string]string{
		"[tool.sglint.kv-scope]\nbase = [\"x\"]\n":  `tool.sglint.kv-scope.base: unknown key (did you mean "bases"?)`,
		"[tool.sglint.kv-scope]\nbases = \"x\"\n":   `tool.sglint.kv-scope.bases: expected`,
		"[tool.sglint.kv-scope]\nbases = [\"\"]\n":  `tool.sglint.kv-scope: bases: empty name`,
		"[tool.sglint]\nkv-scope = 3\n":             `tool.sglint.kv-scope`,
		"[tool.sglint.kv-scpoe]\nbases = [\"x\"]\n": `tool.sglint.kv-scpoe: unknown key`,
	} {
		file = write(t, dir, "pyproject.toml", body)
		_, err = Load(file, rules)
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}

	// A file read without the rules that declare it knows no such table.
	file = write(t, dir, "pyproject.toml", "[tool.sglint.kv-scope]\nbases = [\"x\"]\n")
	_, err = Load(file, rules[:0])
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tool.sglint.kv-scope: unknown key")
}

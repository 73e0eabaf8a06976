package checker

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/internal/stamp/stamptest"
	"github.com/sglint/sglint/rules"
)

// kvProject writes a small project with KV classes and look-alikes.
func kvProject(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml":  "[project]\nname = \"p\"\n",
		"disagg/base.py":  "class BaseKVManager:\n    pass\n",
		"disagg/conn.py":  "from disagg.base import BaseKVManager\n\n\nclass FastKVManager(BaseKVManager):\n    def __init__(self, engine):\n        self.engine = engine\n        self.peers = {}\n\n    def add(self, k, v):\n        self.peers[k] = v\n\n    def send_kvcache(self, k):\n        return self.engine.post(self.peers[k])\n",
		"models/llama.py": "def forward(x):\n    return x\n",
		"models/blob.py":  "x = 1\x00\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return dir
}

func kvInputs(dir string) []Input {
	var in []Input
	for _, rel := range []string{"disagg/base.py", "disagg/conn.py", "disagg/new.py", "models/blob.py", "models/llama.py"} {
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(abs); err == nil {
			in = append(in, Input{Path: rel, Abs: abs, Report: true})
		}
	}
	return in
}

// kvRun runs every rule on kvProject's inputs in dir, with a cache of its
// own or without one.
func kvRun(t *testing.T, dir string) func(withCache bool) *Result {
	store, err := cache.Open(filepath.Join(t.TempDir(), "c"), "engine")
	require.NoError(t, err)
	return func(withCache bool) *Result {
		opts := Options{Rules: rules.All(), Jobs: 2, Root: dir}
		if withCache {
			opts.Cache = store
		}
		return Run(kvInputs(dir), opts)
	}
}

// A demand-driven run with a cache gives, whatever the cache holds, what a
// run without one gives: an unchanged tree is taken from the plan by its
// stamps, a touched but unchanged one by its contents, and a change that
// adds KV code anywhere is seen.
func TestDemandPlanAndStamps(t *testing.T) {
	stamptest.TrustRecent(t)

	dir := kvProject(t)
	connSrc, err := os.ReadFile(filepath.Join(dir, "disagg", "conn.py"))
	require.NoError(t, err)
	run := kvRun(t, dir)
	places := func(res *Result) []string {
		var out []string
		for _, d := range res.Diagnostics {
			out = append(out, d.Path+" "+d.Rule.ID)
		}
		for _, p := range res.Problems {
			out = append(out, p.String())
		}
		return out
	}
	want := places(run(false))
	assert.Equal(t, []string{"disagg/conn.py SGL004", "models/blob.py: warning: binary file (NUL byte at 1:6), skipped"}, want)

	first := run(true)
	assert.Equal(t, want, places(first))
	assert.Equal(t, "", first.Stats.Plan)
	assert.Equal(t, 2, first.Stats.Files, "the KV files only")
	time.Sleep(10 * time.Millisecond)

	second := run(true)
	assert.Equal(t, want, places(second), "the skipped file's warning is replayed")
	assert.Equal(t, "stamps", second.Stats.Plan)
	assert.Equal(t, first.Files, second.Files)
	assert.Equal(t, 3, second.Files, "the readable inputs: all checked, two analysed")

	// Rewritten with the same bytes: the stamps differ, the contents not.
	p := filepath.Join(dir, "models", "llama.py")
	src, _ := os.ReadFile(p)
	require.NoError(t, os.WriteFile(p, src, 0o644))
	third := run(true)
	assert.Equal(t, want, places(third))
	assert.Equal(t, "contents", third.Stats.Plan)

	// An edit that keeps every pre-scan and the loaded files' summaries
	// (positions aside) keeps the selection: a comment at the top of the
	// KV file, which moves its finding; a new body for a function outside
	// the selection.
	conn := filepath.Join(dir, "disagg", "conn.py")
	require.NoError(t, os.WriteFile(conn, append([]byte("# a note\n\n"), connSrc...), 0o644))
	moved := Run(kvInputs(dir), Options{Rules: rules.All(), Jobs: 2, Root: dir})
	require.NoError(t, os.WriteFile(p, []byte("def forward(x):\n    return x + 1\n"), 0o644))
	edited := run(true)
	assert.Equal(t, want, places(edited))
	require.Len(t, edited.Diagnostics, 1)
	assert.Equal(t, moved.Diagnostics[0].Start, edited.Diagnostics[0].Start)
	assert.Equal(t, first.Diagnostics[0].Start.Line+2, edited.Diagnostics[0].Start.Line)
	assert.Equal(t, "pre-scans and summaries", edited.Stats.Plan)
	assert.Equal(t, 2, edited.Stats.Files, "llama.py is still not analysed")
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, "stamps", run(true).Stats.Plan, "the plan records the new stamps")

	// A file outside the selection whose pre-scan changes is seen.
	require.NoError(t, os.WriteFile(p, []byte(
		"from disagg.base import BaseKVManager\n\n\nclass LlamaKVManager(BaseKVManager):\n    def __init__(self):\n        self.peers = {}\n\n    def add(self, k, v):\n        self.peers[k] = v\n\n    def send_llama(self, k):\n        return self.peers[k]\n"), 0o644))
	want3 := places(run(false))
	assert.Contains(t, want3, "models/llama.py SGL004")
	assert.Equal(t, want3, places(run(true)))
	require.NoError(t, os.WriteFile(p, src, 0o644))
	assert.Equal(t, want, places(run(true)))

	// An edit that changes a loaded file's summary starts over from the
	// pre-scans, and finds what a run without a cache finds.
	// Here a send path comes to pass a function of a module imported but
	// not used before as a callback: the pre-scans are the same, the
	// summary is not, and the selection grows.
	withImport := append([]byte("from models import llama\n"), connSrc...)
	require.NoError(t, os.WriteFile(conn, withImport, 0o644))
	assert.Equal(t, 2, run(true).Stats.Files)
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, os.WriteFile(conn, bytes.Replace(withImport, []byte("self.engine.post(self.peers[k])"),
		[]byte("self.engine.post(self.peers[k], llama.forward)"), 1), 0o644))
	fresh := run(false)
	want2 := places(fresh)
	assert.Equal(t, 3, fresh.Stats.Files, "llama.py is analysed")
	replanned := run(true)
	assert.Equal(t, want2, places(replanned))
	assert.Equal(t, "", replanned.Stats.Plan)
	assert.True(t, replanned.Stats.SeedsPlanned, "the pre-scans held: the plan's seeds")
	assert.Equal(t, 3, replanned.Stats.Files)
	assert.Equal(t, 1, replanned.Stats.Parsed, "llama.py only: the edited file, parsed by the try that found its summary changed, comes from the cache")
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, want2, places(run(true)))
	require.NoError(t, os.WriteFile(conn, connSrc, 0o644))

	// KV code appears in a file no run analysed yet.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "disagg", "new.py"), []byte(
		"from disagg.base import BaseKVManager\n\n\nclass SlowKVManager(BaseKVManager):\n    def __init__(self):\n        self.peers = {}\n\n    def add(self, k, v):\n        self.peers[k] = v\n\n    def send_slow(self, k):\n        return self.peers[k]\n"), 0o644))
	want = places(run(false))
	assert.Contains(t, want, "disagg/new.py SGL004")
	fourth := run(true)
	assert.Equal(t, want, places(fourth))
	assert.Equal(t, "", fourth.Stats.Plan)
	assert.Equal(t, 3, fourth.Stats.Files)
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, want, places(run(true)))

	// And the plan is only ever a shortcut: Full analyses every file.
	full := Run(kvInputs(dir), Options{Rules: rules.All(), Jobs: 2, Root: dir, Full: true})
	assert.Equal(t, want, places(full))
	assert.Equal(t, 4, full.Stats.Files)
}

// The file an edit changed is pre-scanned once: phase 0 takes the plan
// check's pre-scan of it, when the plan missed (a pre-scan changed) and
// when the plan held but a summary changed and the run started over.
func TestChangedFileIsPreScannedOnce(t *testing.T) {
	stamptest.TrustRecent(t)
	dir := kvProject(t)
	conn := filepath.Join(dir, "disagg", "conn.py")
	connSrc, err := os.ReadFile(conn)
	require.NoError(t, err)
	run := kvRun(t, dir)
	run(true)
	time.Sleep(10 * time.Millisecond)
	require.Equal(t, "stamps", run(true).Stats.Plan)

	// A call added in a method: the pre-scans hold, the summary does not.
	edited := bytes.Replace(connSrc, []byte("        self.peers[k] = v\n"), []byte("        self.peers[k] = v\n        self.engine.touch(k)\n"), 1)
	require.NotEqual(t, connSrc, edited)
	require.NoError(t, os.WriteFile(conn, edited, 0o644))
	over := run(true)
	assert.True(t, over.Stats.SeedsPlanned, "the run started over from the plan's seeds")
	assert.Zero(t, over.Stats.Prescan, "conn.py's pre-scan was the plan check's")
	assert.Equal(t, findings(run(false)), findings(over))
	time.Sleep(10 * time.Millisecond)

	// A class added: the pre-scan changes, the plan misses.
	added := append(bytes.Clone(edited), []byte("\n\nclass SlowKVManager(BaseKVManager):\n    pass\n")...)
	require.NoError(t, os.WriteFile(conn, added, 0o644))
	missed := run(true)
	assert.Empty(t, missed.Stats.Plan, "the plan missed")
	assert.Zero(t, missed.Stats.Prescan, "conn.py's pre-scan was the plan check's")
	assert.Equal(t, findings(run(false)), findings(missed))
}

// findings lists a result's findings and problems, in order.
func findings(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", d.Path, d.Start.Line, d.Start.Column, d.Rule.ID, d.Message))
	}
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

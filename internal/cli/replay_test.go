package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/internal/replay"
	"github.com/sglint/sglint/internal/stamp/stamptest"
)

// A run is given again only while nothing it depended on changed; after
// each change below, the run's output is a run without the cache's.
func TestReplayOnlyUnchangedRuns(t *testing.T) {
	replayTest(t)

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "example"))))
	cacheDir := t.TempDir()
	args := []string{"--cache-dir", cacheDir, "--format", "concise", "--records", "records", "python"}
	// A run not replayed takes its input set from the last record when
	// only input files changed in place (a rescan), and walks otherwise:
	// each step's output is a run without the cache's either way.
	step := func(what string, wantReplay bool, wantRescan ...bool) {
		t.Helper()
		before := rescans.Load()
		replayStep(t, dir, args, what, wantReplay)
		assert.Equal(t, len(wantRescan) > 0 && wantRescan[0], rescans.Load() > before, what+": the input set from the record")
	}
	fabric := filepath.Join(dir, "python", "sglang", "srt", "disaggregation", "fabric", "conn.py")

	step("first run", false)
	step("nothing changed", true)

	appendFile(t, fabric, "\n\nclass LaterKVManager(FabricKVManager):\n    def send_later(self, k):\n        return self.decode_kv_args_table[k]\n")
	step("a backend edited in place", false, true)
	step("nothing changed since", true)
	appendFile(t, fabric, "\n# and again\n")
	step("edited in place again", false, true)
	require.NoError(t, os.Chmod(fabric, 0o600))
	step("its mode changed", false, true)

	putFile(t, dir, "python/sglang/srt/disaggregation/fabric/extra.py",
		"from sglang.srt.disaggregation.fabric.conn import FabricKVManager\n\n\nclass ExtraKVManager(FabricKVManager):\n    def send_extra(self, k):\n        return self.decode_kv_args_table[k]\n")
	step("a file added", false)

	putFile(t, dir, "python/pyproject.toml", "[project]\nname = \"x\"\n\n[tool.sglint]\nignore = [\"SGL004\"]\n")
	step("a configuration changed", false)
	step("nothing changed since", true)

	putFile(t, dir, "python/sglang/srt/disaggregation/.gitignore", "ringdma/\n")
	step("a .gitignore added", false)
	appendFile(t, filepath.Join(dir, "python", "sglang", "srt", "disaggregation", ".gitignore"), "fabric/extra.py\n")
	step("a .gitignore edited", false)

	rec := filepath.Join(dir, "records", "e0a1b2c3d4e5f601.json")
	data, err := os.ReadFile(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(rec, append(data, '\n'), 0o644))
	step("a record edited", false)

	putFile(t, dir, "pyproject.toml", "[tool.sglint]\nselect = [\"SGL001\"]\n")
	step("the root configuration changed", false)
	step("nothing changed since", true)

	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	step("a repository created around the project", false)
	step("nothing changed since", true)

	// Another command line is another record.
	args = append([]string{"--cache-dir", cacheDir, "--format", "json"}, args[4:]...)
	step("another format", false)
	step("the same again", true)
}

// The directories above the project are watched by the names looked up
// there: a configuration appearing above a project that has none changes
// the run, and is seen.
func TestReplaySeesSettingsAbove(t *testing.T) {
	replayTest(t)

	above := t.TempDir()
	dir := filepath.Join(above, "proj")
	putFile(t, dir, "pyproject.toml", "[project]\nname = \"p\"\n")
	putFile(t, dir, "pkg/broken.py", "def f(:\n")
	cacheDir := t.TempDir()
	args := []string{"--cache-dir", cacheDir, "--all-files", "pkg"}
	step := func(what string, wantReplay bool) (int, string) {
		t.Helper()
		return replayStep(t, dir, args, what, wantReplay)
	}
	code, out := step("first run", false)
	assert.Equal(t, ExitFindings, code)
	assert.Contains(t, out, "SGL000")
	step("nothing changed", true)
	putFile(t, above, "sglint.toml", "ignore = [\"SGL000\"]\n")
	code, _ = step("a configuration above the project", false)
	assert.Equal(t, ExitClean, code, "the configuration above applies")
	step("nothing changed since", true)
	putFile(t, above, "unrelated.txt", "x\n")
	step("an unrelated file above", true)
}

// A run given file paths, as pre-commit gives them, is recorded and given
// again, and stops being given again when the named file, another file of
// the project (context for the analysis) or the project's files change.
func TestReplayFilePaths(t *testing.T) {
	replayTest(t)

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "example"))))
	cacheDir := t.TempDir()
	dis := filepath.Join("python", "sglang", "srt", "disaggregation")
	named := filepath.Join(dis, "fabric", "conn.py")
	args := []string{"--cache-dir", cacheDir, "--format", "concise", "--records", "records", named}
	step := func(what string, wantReplay bool) {
		t.Helper()
		replayStep(t, dir, args, what, wantReplay)
	}
	step("first run", false)
	step("nothing changed", true)
	appendFile(t, filepath.Join(dir, named), "\n# edited\n")
	step("the named file edited", false)
	step("nothing changed since", true)
	putFile(t, dir, filepath.Join(dis, "fabric", "extra.py"), "X = 1\n")
	step("a file added beside it", false)
	step("nothing changed since", true)
	putFile(t, dir, filepath.Join(dis, "fabric", "extra.py"), "X = 2\n")
	step("a context file edited", false)
}

// replayStep runs args in dir (the first two set the cache directory),
// then the same without the cache, and checks that both give the same
// exit status, output and standard error, and
// whether the first was given again; it returns the first's status and
// output. The sleeps keep a change before or after it from landing in the
// same timestamp tick.
func replayStep(t *testing.T, dir string, args []string, what string, wantReplay bool) (int, string) {
	t.Helper()
	time.Sleep(20 * time.Millisecond)
	before := replays.Load()
	code, out, errOut := run(t, dir, args...)
	wc, wo, we := run(t, dir, append([]string{"--no-cache"}, args[2:]...)...)
	assert.Equal(t, wc, code, what)
	assert.Equal(t, wo, out, what)
	assert.Equal(t, we, errOut, what)
	assert.Equal(t, wantReplay, replays.Load() > before, what)
	time.Sleep(20 * time.Millisecond)
	return code, out
}

// appendFile appends text to the file at path, in place.
func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// replayTest skips where runs are not recorded, and trusts the stamps of
// the files the test writes (stamptest.TrustRecent).
func replayTest(t *testing.T) {
	t.Helper()
	if !replay.Supported() {
		t.Skip("runs are recorded on Linux only")
	}
	stamptest.TrustRecent(t)
}

// A run returns only once the cache writes it left in the background are
// on disk: the cache directory does not change after it returns. (Without
// the wait, the record of the run's output, written last, lands after.)
func TestCheckReturnsAfterItsCacheWrites(t *testing.T) {
	replayTest(t)
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "example"))))
	cacheDir := t.TempDir()
	entries := func() map[string]int64 {
		out := map[string]int64{}
		require.NoError(t, filepath.WalkDir(cacheDir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err == nil {
				out[p] = fi.Size()
			}
			return err
		}))
		return out
	}
	for _, what := range []string{"first run (every entry new)", "an edit (entries rewritten)"} {
		if what != "first run (every entry new)" {
			appendFile(t, filepath.Join(dir, "python", "sglang", "srt", "disaggregation", "fabric", "conn.py"), "\n# edited\n")
		}
		run(t, dir, "--cache-dir", cacheDir, "--records", "records", "python")
		after := entries()
		require.NotEmpty(t, after, what)
		time.Sleep(300 * time.Millisecond) // a write still going would land by now
		assert.Equal(t, after, entries(), what)
	}
}

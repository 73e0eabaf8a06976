package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sglint/sglint/internal/stamp/stamptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree writes files (a trailing "/" makes an empty directory) under a new
// temporary directory and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, spec := range files {
		name, content, _ := strings.Cut(spec, "=")
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return root
}

func symlink(t *testing.T, root, target, link string) {
	t.Helper()
	require.NoError(t, os.Symlink(filepath.FromSlash(target), filepath.Join(root, filepath.FromSlash(link))))
}

// find runs Find from cwd with opts and returns the display paths.
func find(t *testing.T, cwd string, opts Options, paths ...string) ([]string, []Problem) {
	t.Helper()
	opts.Cwd = cwd
	files, problems := Find(paths, opts)
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
		assert.True(t, filepath.IsAbs(f.Abs), f.Abs)
	}
	return got, problems
}

func TestWalkFindsPythonFilesSorted(t *testing.T) {
	root := tree(t,
		"b.py", "a.py", "notes.txt", "pkg/__init__.py", "pkg/sub/mod.py", "pkg/data.json",
		"x.py/inside.py", // a directory named like a Python file is walked
		"empty/",
		".venv/lib/site.py", "venv/v.py", "__pycache__/c.py", "build/gen.py", "dist/d.py",
		"node_modules/n.py", ".tox/t.py", ".mypy_cache/m.py", ".sglint_cache/s.py", ".git/hooks/h.py",
		"pkg/build/deep.py", // default excludes match at any depth
	)
	got, problems := find(t, root, DefaultOptions(), ".")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"a.py", "b.py", "pkg/__init__.py", "pkg/sub/mod.py", "x.py/inside.py"}, got)

	got, _ = find(t, root, Options{NoDefaultExcludes: true}, "pkg")
	assert.Equal(t, []string{"pkg/__init__.py", "pkg/build/deep.py", "pkg/sub/mod.py"}, got)
}

func TestDisplayPaths(t *testing.T) {
	root := tree(t, "pkg/a.py", "other/b.py")
	cwd := filepath.Join(root, "pkg")

	got, problems := find(t, cwd, DefaultOptions(), ".", "../other", filepath.Join(root, "pkg", "a.py"))
	assert.Empty(t, problems)
	// Paths inside the working directory are relative; others absolute.
	assert.Equal(t, []string{filepath.ToSlash(filepath.Join(root, "other", "b.py")), "a.py"}, got)

	files, _ := Find([]string{"./pkg/"}, Options{Cwd: root})
	require.Len(t, files, 1)
	assert.Equal(t, "pkg/a.py", files[0].Path)
	assert.Equal(t, filepath.Join(root, "pkg", "a.py"), files[0].Abs)
	assert.False(t, files[0].Explicit)
}

func TestExplicitFilesAreAlwaysIncluded(t *testing.T) {
	root := tree(t,
		".gitignore=ignored.py\n", "ignored.py", "build/gen.py", "script", "tests/t.py",
	)
	files, problems := Find([]string{"ignored.py", "build/gen.py", "script", "tests/t.py", "."},
		Options{RespectGitignore: true, Exclude: []string{"tests"}, Cwd: root})
	assert.Empty(t, problems)
	got := map[string]bool{}
	for _, f := range files {
		got[f.Path] = f.Explicit
	}
	assert.Equal(t, map[string]bool{"build/gen.py": true, "ignored.py": true, "script": true, "tests/t.py": true}, got)
}

func TestExplicitDirectoryIsWalkedEvenIfExcluded(t *testing.T) {
	root := tree(t, "build/gen.py", "build/__pycache__/c.py")
	got, problems := find(t, root, DefaultOptions(), "build")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"build/gen.py"}, got)
}

func TestGitignore(t *testing.T) {
	root := tree(t,
		".git/info/exclude=# local\nsecret.py\n",
		".gitignore=generated/\n*_pb2.py\r\n\n# comment\n/top_only.py\n",
		"main.py", "secret.py", "api_pb2.py", "top_only.py",
		"generated/g.py",
		"pkg/top_only.py", // anchored pattern: only the root's is ignored
		"pkg/.gitignore=local.py\n!keep_pb2.py\n",
		"pkg/local.py", "pkg/keep_pb2.py", "pkg/drop_pb2.py", "pkg/mod.py",
		"other/local.py", // pkg's rules stay in pkg
	)
	got, problems := find(t, root, DefaultOptions(), ".")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"main.py", "other/local.py", "pkg/keep_pb2.py", "pkg/mod.py", "pkg/top_only.py"}, got)

	got, _ = find(t, root, Options{}, ".")
	assert.Len(t, got, 11, "RespectGitignore off: %v", got)
}

func TestGitignoreAboveTheWalkRoot(t *testing.T) {
	root := tree(t,
		".git/", ".gitignore=*.gen.py\nignored_dir/\n",
		"src/.gitignore=/pkg/skip.py\n",
		"src/pkg/a.py", "src/pkg/a.gen.py", "src/pkg/skip.py", "src/ignored_dir/x.py",
	)
	// Rules from the repository root and from src apply to a walk of src/pkg.
	got, problems := find(t, filepath.Join(root, "src", "pkg"), DefaultOptions(), ".")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"a.py"}, got)

	// A directory ignored by the rules above it is still walked when named.
	got, _ = find(t, root, DefaultOptions(), "src/ignored_dir")
	assert.Equal(t, []string{"src/ignored_dir/x.py"}, got)

	// Without a repository, .gitignore files above the walk root are not read.
	require.NoError(t, os.RemoveAll(filepath.Join(root, ".git")))
	got, _ = find(t, filepath.Join(root, "src", "pkg"), DefaultOptions(), ".")
	assert.Equal(t, []string{"a.gen.py", "a.py", "skip.py"}, got)
}

func TestGitignoreInLinkedWorktree(t *testing.T) {
	root := tree(t,
		"main/.git/info/exclude=excluded.py\n",
		"main/.git/worktrees/wt/commondir=../..\n",
		"wt/.git=gitdir: ../main/.git/worktrees/wt\n",
		"wt/a.py", "wt/excluded.py",
	)
	got, problems := find(t, filepath.Join(root, "wt"), DefaultOptions(), ".")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"a.py"}, got)
}

func TestExcludeGlobs(t *testing.T) {
	root := tree(t,
		"pkg/a.py", "pkg/a_old.py", "pkg/legacy/l.py", "pkg/tests/t.py", "pkg/sub/tests/t.py",
		"pkg/sub/b.py", "pkg/sub/legacy/keep.py",
	)
	opts := DefaultOptions()
	// A glob matches the base name ("tests"), the path relative to the walk
	// root ("legacy/**") or the display path ("pkg/sub/b.py").
	opts.Exclude = []string{"tests/", "./legacy/**", "**/*_old.py", "pkg/sub/b.py"}
	got, problems := find(t, root, opts, "pkg")
	assert.Empty(t, problems)
	assert.Equal(t, []string{"pkg/a.py", "pkg/sub/legacy/keep.py"}, got)

	// Names without "/": plain ones are looked up (whole names only: "a"
	// is not "a.py"), wildcards matched.
	opts.Exclude = []string{"a", "sub", "*_old.py", "{tests,legacy}"}
	got, _ = find(t, root, opts, "pkg")
	assert.Equal(t, []string{"pkg/a.py"}, got)

	opts.Exclude = []string{filepath.ToSlash(root) + "/pkg/sub/**"} // absolute
	got, _ = find(t, root, opts, "pkg")
	assert.Equal(t, []string{"pkg/a.py", "pkg/a_old.py", "pkg/legacy/l.py", "pkg/tests/t.py"}, got)

	opts.Exclude = []string{"[unclosed"}
	files, problems := find(t, root, opts, "pkg")
	assert.Empty(t, files)
	require.Len(t, problems, 1)
	assert.Equal(t, Problem{Path: "[unclosed", Message: "invalid exclude glob"}, problems[0])

	assert.NoError(t, CheckExcludes([]string{"pkg/**", "*.py", "./legacy/"}))
	err := CheckExcludes([]string{"pkg/**", "[unclosed", "]"})
	assert.EqualError(t, err, "[unclosed: invalid exclude glob", "the first bad one")
	assert.Error(t, CheckExcludes([]string{"./"}), "empty once cleaned")
}

func TestSymlinks(t *testing.T) {
	outside := tree(t, "lib/ext.py")
	root := tree(t, "pkg/real/r.py", "pkg/f.py")
	symlink(t, root, "..", "pkg/loop")             // back to an ancestor
	symlink(t, root, "real", "pkg/alias")          // to a directory also walked for real
	symlink(t, root, outside+"/lib", "pkg/vendor") // to a directory outside the root
	symlink(t, root, "f.py", "pkg/a_link.py")      // to a file walked for real
	symlink(t, root, outside+"/lib/ext.py", "pkg/ext_link.py")
	symlink(t, root, "missing.py", "pkg/dangling.py")
	symlink(t, root, "missing", "pkg/dangling_dir") // not claiming to be Python: silent

	got, problems := find(t, root, DefaultOptions(), ".")
	// Each file once, under its real path when the walk reaches that too
	// (ext.py is reached through two links: the linked directory wins).
	assert.Equal(t, []string{"pkg/f.py", "pkg/real/r.py", "pkg/vendor/ext.py"}, got)
	require.Len(t, problems, 1)
	assert.True(t, problems[0].Warning)
	assert.Equal(t, "pkg/dangling.py", problems[0].Path)
	assert.Contains(t, problems[0].Message, "dangling symbolic link")

	got, _ = find(t, root, DefaultOptions(), "pkg/vendor")
	assert.Equal(t, []string{"pkg/vendor/ext.py"}, got)

	// An explicit dangling link is an error, not a note.
	_, problems = find(t, root, DefaultOptions(), "pkg/dangling.py")
	require.Len(t, problems, 1)
	assert.False(t, problems[0].Warning)
	assert.Contains(t, problems[0].Message, `target "missing.py" does not exist`)
}

func TestSymlinkLoopOnly(t *testing.T) {
	root := tree(t, "a/b/m.py")
	symlink(t, root, "../..", "a/b/up")
	symlink(t, root, "b", "a/b/self")
	symlink(t, root, "../c", "a/c") // c -> ../c: a link to itself, never resolves
	got, problems := find(t, root, DefaultOptions(), "a", ".", "a/b/up")
	assert.Equal(t, []string{"a/b/m.py"}, got)
	assert.Empty(t, problems)
}

func TestBadArguments(t *testing.T) {
	root := tree(t, "a.py")
	got, problems := find(t, root, DefaultOptions(), "missing", "a.py/child", "a.py")
	assert.Equal(t, []string{"a.py"}, got, "good arguments are still used")
	require.Len(t, problems, 2)
	assert.Equal(t, Problem{Path: "a.py/child", Message: "cannot read: not a directory"}, problems[0])
	assert.Equal(t, Problem{Path: "missing", Message: "no such file or directory"}, problems[1])
}

func TestUnreadableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("permissions do not apply to root")
	}
	root := tree(t, "ok.py", "locked/x.py")
	require.NoError(t, os.Chmod(filepath.Join(root, "locked"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	got, problems := find(t, root, DefaultOptions(), ".")
	assert.Equal(t, []string{"ok.py"}, got)
	require.Len(t, problems, 1)
	assert.Equal(t, "locked", problems[0].Path)
	assert.False(t, problems[0].Warning)
}

func TestDuplicatesAndArgumentOrder(t *testing.T) {
	root := tree(t, "pkg/a.py", "pkg/sub/b.py")
	want := []string{"pkg/a.py", "pkg/sub/b.py"}
	for _, args := range [][]string{
		{"pkg", "pkg/sub", "pkg/a.py", "./pkg/a.py"},
		{"pkg/a.py", "pkg/sub", "pkg"},
		{root, "pkg"},
	} {
		files, problems := Find(args, Options{Cwd: root})
		assert.Empty(t, problems)
		var got []string
		for _, f := range files {
			got = append(got, f.Path)
		}
		assert.Equal(t, want, got, "args %v", args)
		assert.Equal(t, slices.Contains(args, "pkg/a.py"), files[0].Explicit, "args %v", args)
	}
}

func TestCommonDir(t *testing.T) {
	sep := string(filepath.Separator)
	at := func(p string) string { return filepath.FromSlash("/" + p) }
	assert.Equal(t, at("a/b"), commonDir(at("a/b"), at("a/b/c/d")))
	assert.Equal(t, at("a"), commonDir(at("a/b/c"), at("a/bc")), "b is not a prefix of bc")
	assert.Equal(t, at("a/b"), commonDir(at("a/b/c"), at("a/b")))
	assert.Equal(t, sep, commonDir(at("x"), at("y")))
}

func TestProjectRoot(t *testing.T) {
	root := tree(t,
		"repo/.git/", "repo/python/pyproject.toml", "repo/python/pkg/srt/conn.py",
		"repo/tools/t.py", "loose/a/x.py", "loose/b/y.py",
	)
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	assert.Equal(t, at("repo/python"), ProjectRoot([]string{at("repo/python/pkg/srt")}))
	assert.Equal(t, at("repo/python"), ProjectRoot([]string{at("repo/python/pkg/srt/conn.py")}))
	assert.Equal(t, at("repo"), ProjectRoot([]string{at("repo/python/pkg"), at("repo/tools/t.py")}))
	// No marker up to the filesystem root (a temporary directory has
	// none, unless the machine keeps one above it): the common directory.
	if ProjectRoot([]string{at("loose")}) == at("loose") {
		assert.Equal(t, at("loose"), ProjectRoot([]string{at("loose/a/x.py"), at("loose/b")}))
	}
}

// With ScopeOf, each directory's entries are selected by its own scope: a
// configuration deep in the tree can keep the default excludes out, add its
// own globs, or stop honouring .gitignore below it.
func TestScopeOf(t *testing.T) {
	root := tree(t, "a.py", "build/b.py", "ignored.py", "sub/build/c.py", "sub/x/skip.py", "sub/ignored.py", "sub/ok.py",
		".gitignore=ignored.py\n")
	top := &Scope{RespectGitignore: true}
	sub := &Scope{NoDefaultExcludes: true, Exclude: []string{"x"}}
	subDir := filepath.Join(root, "sub")
	opts := Options{ScopeOf: func(dir string, _ func(string) bool) *Scope {
		if dir == subDir || strings.HasPrefix(dir, subDir+string(filepath.Separator)) {
			return sub
		}
		return top
	}}
	got, probs := find(t, root, opts, ".")
	require.Empty(t, probs)
	assert.Equal(t, []string{"a.py", "sub/build/c.py", "sub/ignored.py", "sub/ok.py"}, got)
}

// ScopeOf's has answers from the directory's listing: config files present
// are seen, absent ones are not, and nothing else is asked.
func TestScopeOfListing(t *testing.T) {
	root := tree(t, "pyproject.toml=", "sub/sglint.toml=", "sub/m.py", "other/n.py")
	seen := map[string][2]bool{}
	opts := Options{ScopeOf: func(dir string, has func(string) bool) *Scope {
		rel, _ := filepath.Rel(root, dir)
		seen[filepath.ToSlash(rel)] = [2]bool{has("pyproject.toml"), has("sglint.toml")}
		return nil
	}}
	_, probs := find(t, root, opts, ".")
	require.Empty(t, probs)
	assert.Equal(t, map[string][2]bool{".": {true, false}, "sub": {false, true}, "other": {false, false}}, seen)
}

// The walk reads listings ahead and stats files in parallel; what it
// returns must not depend on that. A file reached by two hard links is
// listed once, under the path the sequential walk reaches first, every time.
func TestParallelWalkIsDeterministic(t *testing.T) {
	var specs []string
	for i := range 40 {
		for j := range 5 {
			specs = append(specs, fmt.Sprintf("d%02d/e%d/m%d.py", i, j, j))
		}
	}
	specs = append(specs, "z/linked.py=x = 1\n")
	root := tree(t, specs...)
	require.NoError(t, os.Link(filepath.Join(root, "z", "linked.py"), filepath.Join(root, "a_link.py")))
	first, probs := find(t, root, DefaultOptions(), ".")
	require.Empty(t, probs)
	assert.Len(t, first, 40*5+1)
	assert.Contains(t, first, "a_link.py", "the root's own file is reached before z/")
	assert.NotContains(t, first, "z/linked.py")
	for range 20 {
		got, _ := find(t, root, DefaultOptions(), ".")
		require.Equal(t, first, got)
	}
}

// BenchmarkFindTree walks a real tree, as `sglint ./python` does before
// anything else (SGLINT_BENCH_TREE: an sglang checkout's python/ directory).
// A warm run's time is mostly this walk.
func BenchmarkFindTree(b *testing.B) {
	tree := os.Getenv("SGLINT_BENCH_TREE")
	if tree == "" {
		b.Skip("SGLINT_BENCH_TREE is not set")
	}
	b.ReportAllocs()
	for b.Loop() {
		files, probs := Find([]string{tree}, DefaultOptions())
		if len(files) == 0 || len(probs) > 0 {
			b.Fatalf("%d files, problems %v", len(files), probs)
		}
	}
}

// BenchmarkFindTreeListings is BenchmarkFindTree with the listings of the
// walk before: the walk of an unchanged tree in a warm run.
func BenchmarkFindTreeListings(b *testing.B) {
	tree := os.Getenv("SGLINT_BENCH_TREE")
	if tree == "" {
		b.Skip("SGLINT_BENCH_TREE is not set")
	}
	first := DecodeListings(nil)
	opts := DefaultOptions()
	opts.Listings = first
	Find([]string{tree}, opts)
	data := first.Encode()
	stamptest.TrustRecent(b)
	b.ReportAllocs()
	for b.Loop() {
		opts.Listings = DecodeListings(data)
		files, probs := Find([]string{tree}, opts)
		if len(files) == 0 || len(probs) > 0 {
			b.Fatalf("%d files, problems %v", len(files), probs)
		}
		if _, read := opts.Listings.counts(); read > 0 {
			b.Fatalf("%d listings read again", read)
		}
	}
}

func TestIsProjectRoot(t *testing.T) {
	dir := t.TempDir()
	assert.False(t, IsProjectRoot(dir))
	assert.NoError(t, os.WriteFile(filepath.Join(dir, "setup.py"), nil, 0o644))
	assert.True(t, IsProjectRoot(dir))
}

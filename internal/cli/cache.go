package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sglint/sglint/analyzer/cache"
)

// cacheDirName is the cache's directory at the project root.
const cacheDirName = ".sglint_cache"

// openCache returns the store for this run: --cache-dir if given, else
// SGLINT_CACHE_DIR if set, else .sglint_cache in cacheRoot(root); nil with
// --no-cache, or when the directory cannot be used (a warning says why; the
// run goes on without).
func openCache(noCache bool, flagDir, root string, stderr io.Writer) *cache.Store {
	if noCache {
		return nil
	}
	dir := flagDir
	if dir == "" {
		dir = os.Getenv("SGLINT_CACHE_DIR")
	}
	if dir == "" {
		dir = filepath.Join(cacheRoot(root), cacheDirName)
	}
	engine, err := cache.EngineID()
	if err == nil {
		var s *cache.Store
		if s, err = cache.Open(dir, engine); err == nil {
			return s
		}
	}
	fmt.Fprintf(stderr, "sglint: warning: running without a cache: %v\n", err)
	return nil
}

// cacheRoot is where the cache lives for a project root: the top of the git
// work tree that holds it, else the root itself. The project root depends on
// the paths given (python/ for `sglint python`, the repository for `sglint
// .`); the repository does not, so one checkout keeps one cache directory,
// whose entries are keyed by project root inside.
func cacheRoot(root string) string {
	if root == "" {
		root = "."
	}
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return root
		}
		dir = parent
	}
}

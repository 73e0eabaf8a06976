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
// SGLINT_CACHE_DIR if set, else .sglint_cache at the project root; nil with
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
		if root == "" {
			root = "."
		}
		dir = filepath.Join(root, cacheDirName)
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

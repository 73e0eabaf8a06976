package cli

import (
	"fmt"
	"io"

	"github.com/sglint/sglint/analyzer/cache"
)

// openCache returns the store for this run: --cache-dir if given, else
// cache.DefaultDir(root) ($SGLINT_CACHE_DIR, or .sglint_cache at the top of
// the checkout); nil with --no-cache, or when the directory cannot be used
// (a warning says why; the run goes on without).
func openCache(noCache bool, flagDir, root string, stderr io.Writer) *cache.Store {
	if noCache {
		return nil
	}
	dir := flagDir
	if dir == "" {
		dir = cache.DefaultDir(root)
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

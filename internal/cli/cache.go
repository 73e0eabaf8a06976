package cli

import (
	"fmt"
	"io"

	"github.com/sglint/sglint/analyzer/cache"
	"github.com/sglint/sglint/analyzer/discover"
)

// openCache returns the store for this run in dir (cacheDirOf); nil with
// --no-cache, or when the directory cannot be used (a warning says why;
// the run goes on without).
func openCache(noCache bool, dir string, stderr io.Writer) *cache.Store {
	if noCache {
		return nil
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

// listingsKey names the directory listings kept for the walk. The store
// is the project's: its listings are those of the project's walks.
var listingsKey = cache.NewKey([]byte("listings 1"))

// loadListings returns the listings the last walk recorded, nil without a
// store.
func loadListings(store *cache.Store) *discover.Listings {
	if store == nil {
		return nil
	}
	return discover.DecodeListings(store.Get(listingsKey))
}

// saveListings records this walk's listings when they changed.
func saveListings(store *cache.Store, l *discover.Listings) {
	if store == nil || !l.Changed() {
		return
	}
	store.PutLater(listingsKey, l.Encode())
}

// cacheDirOf is --cache-dir if given, else cache.DefaultDir(root)
// ($SGLINT_CACHE_DIR, or .sglint_cache at the top of the checkout).
func cacheDirOf(flagDir, root string) string {
	if flagDir != "" {
		return flagDir
	}
	return cache.DefaultDir(root)
}

// peekCache opens the store for reading only, without the upkeep of
// openCache (creating it, marking it used, pruning other builds'): for a
// run that may only print a recorded output. nil when there is none.
func peekCache(dir string) *cache.Store {
	engine, err := cache.EngineID()
	if err != nil {
		return nil
	}
	s, err := cache.OpenReadOnly(dir, engine)
	if err != nil {
		return nil
	}
	return s
}

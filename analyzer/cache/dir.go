package cache

import (
	"os"
	"path/filepath"

	"github.com/sglint/sglint/analyzer/discover"
)

// DirName is the cache's directory name.
const DirName = ".sglint_cache"

// DefaultDir is where the cache of a project root lives unless a flag says
// otherwise: $SGLINT_CACHE_DIR when set, else DirName at the top of the git
// work tree that holds root, else at root itself. The project root depends
// on the paths given (python/ for `sglint python`, the repository for
// `sglint .`); the repository does not, so one checkout keeps one cache
// directory, whose entries are keyed by project root inside. The command
// line writes there and the language server reads there.
func DefaultDir(root string) string {
	if dir := os.Getenv("SGLINT_CACHE_DIR"); dir != "" {
		return dir
	}
	if root == "" {
		root = "."
	}
	top := discover.RepoRoot(root)
	if top == "" {
		top = root
	}
	return filepath.Join(top, DirName)
}

// Package golden compares test output with files under testdata/golden.
// Run the tests with -update to rewrite the files, then review the diff:
//
//	go test ./analyzer/output ./internal/cli -update
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// pkgDir is the test's package directory: the working directory when the
// test binary starts, before any test changes it.
var pkgDir, _ = os.Getwd()

// Assert checks got against testdata/golden/name, or rewrites it with -update.
func Assert(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join(pkgDir, "testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing: run the test with -update to create it")
	assert.Equal(t, string(want), string(got), "output differs from %s (rerun with -update to accept)", path)
}

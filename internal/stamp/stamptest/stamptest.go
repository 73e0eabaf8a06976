// Package stamptest helps tests of the caches that trust file stamps.
package stamptest

import (
	"testing"

	"github.com/sglint/sglint/internal/stamp"
)

// TrustRecent sets the racy window to zero until the test ends: the files
// a test writes are milliseconds old, and a cache would otherwise read
// them again rather than trust their stamps. Tests that use it sleep a few
// milliseconds between writes, so that a change shows in the times.
func TrustRecent(tb testing.TB) {
	old := stamp.RacyWindow
	stamp.RacyWindow = 0
	tb.Cleanup(func() { stamp.RacyWindow = old })
}

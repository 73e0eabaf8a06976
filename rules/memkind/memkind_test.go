package memkind

import (
	"testing"

	"github.com/sglint/sglint/analyzer/analysistest"
	"github.com/sglint/sglint/rules/sendpath"
)

func TestFixtures(t *testing.T) {
	analysistest.Run(t, "../../testdata/rules/sgl002", Rule)
}

// shapesScope makes every method of the unit-shape classes a send entry:
// the shapes pin down the flow analysis, apart from what a send path is.
var shapesScope = &sendpath.ScopeOptions{
	Bases:         []string{"Shapes", "CallerChecks", "HelperChecks"},
	EntryPatterns: []string{"*"},
}

func TestShapes(t *testing.T) {
	analysistest.RunWith(t, "testdata/shapes", analysistest.WithSection(sendpath.Section, shapesScope), Rule)
}

// Outside KV send paths the same arguments are not the recorded failure:
// with the default scope no shape class is KV code, so nothing is reported.
func TestShapesOutsideKVScope(t *testing.T) {
	ds := analysistest.Findings(t, "testdata/shapes", analysistest.WithSection(sendpath.Section, sendpath.DefaultScopeOptions()), Rule)
	if len(ds) != 0 {
		t.Fatalf("findings outside KV classes: %v", ds)
	}
}

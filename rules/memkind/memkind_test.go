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

// The demand loads the classes that declare the attributes passed as
// memory kinds (models.py, which nothing imports), so the lookups by name
// find what the full analysis finds.
func TestShapesDemandEqualsFull(t *testing.T) {
	opts := analysistest.WithSection(sendpath.Section, shapesScope)
	demand := analysistest.Findings(t, "testdata/shapes", opts, Rule)
	opts.Full = true
	full := analysistest.Findings(t, "testdata/shapes", opts, Rule)
	if len(full) == 0 || len(demand) != len(full) {
		t.Fatalf("demand-driven: %d findings, full: %d", len(demand), len(full))
	}
	for i := range full {
		if full[i].Message != demand[i].Message || full[i].Start != demand[i].Start {
			t.Errorf("differs: %v vs %v", full[i], demand[i])
		}
	}
}

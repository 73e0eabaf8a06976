package memkind

import (
	"testing"

	"github.com/sglint/sglint/analyzer/analysistest"
)

func TestFixtures(t *testing.T) {
	analysistest.Run(t, "../../testdata/rules/sgl002", Rule)
}

func TestShapes(t *testing.T) {
	analysistest.Run(t, "testdata/shapes", Rule)
}

package dropped

import (
	"testing"

	"github.com/sglint/sglint/analyzer/analysistest"
)

func TestFixtures(t *testing.T) {
	analysistest.Run(t, "../../testdata/rules/sgl008", Rule)
}

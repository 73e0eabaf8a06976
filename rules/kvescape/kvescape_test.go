package kvescape

import (
	"testing"

	"github.com/sglint/sglint/analyzer/analysistest"
)

const fixtures = "../../testdata/rules/sgl006"

func TestFixtures(t *testing.T) {
	analysistest.Run(t, fixtures, Rule)
}

package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/syntax"
)

func TestDropRecordDuplicates(t *testing.T) {
	dedicated := &analyzer.Rule{ID: "SGL901", Record: "r1"}
	generic := &analyzer.Rule{ID: "SGL910"}
	at := func(r *analyzer.Rule, line int, record string) analyzer.Diagnostic {
		return analyzer.Diagnostic{Rule: r, Path: "a.py", Start: syntax.Position{Line: line, Column: 5}, Record: record}
	}
	in := []analyzer.Diagnostic{
		at(dedicated, 3, "r1"),
		at(generic, 3, "r1"), // the same place and record: dropped
		at(generic, 3, "r2"), // another record: kept
		at(generic, 4, "r1"), // another place: kept
		at(dedicated, 9, "r1"),
	}
	got := dropRecordDuplicates(in)
	assert.Equal(t, []analyzer.Diagnostic{at(dedicated, 3, "r1"), at(generic, 3, "r2"), at(generic, 4, "r1"), at(dedicated, 9, "r1")}, got)

	only := []analyzer.Diagnostic{at(generic, 3, "r1")}
	assert.Equal(t, only, dropRecordDuplicates(only), "no dedicated finding: nothing dropped")
}

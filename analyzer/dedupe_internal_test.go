package analyzer

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/syntax"
)

func TestDropRecordDuplicates(t *testing.T) {
	dedicated := &Rule{ID: "SGL901", Record: "r1"}
	generic := &Rule{ID: "SGL910"}
	at := func(r *Rule, line int, record string) Diagnostic {
		return Diagnostic{Rule: r, Path: "a.py", Start: syntax.Position{Line: line, Column: 5}, Record: record}
	}
	in := []Diagnostic{
		at(dedicated, 3, "r1"),
		at(generic, 3, "r1"), // the same place and record: dropped
		at(generic, 3, "r2"), // another record: kept
		at(generic, 4, "r1"), // another place: kept
		at(dedicated, 9, "r1"),
	}
	got := dropRecordDuplicates(in)
	assert.Equal(t, []Diagnostic{at(dedicated, 3, "r1"), at(generic, 3, "r2"), at(generic, 4, "r1"), at(dedicated, 9, "r1")}, got)

	only := []Diagnostic{at(generic, 3, "r1")}
	assert.Equal(t, only, dropRecordDuplicates(only), "no dedicated finding: nothing dropped")
}

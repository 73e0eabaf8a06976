package output

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
)

// sarifSchemas are the SARIF 2.1.0 schemas shipped in testdata/sarif (see
// its README for their origin): the sarif-sdk's current one and the rtm.5
// one OASIS standardised.
var sarifSchemas = []string{"sarif-schema-2.1.0.json", "sarif-schema-2.1.0-rtm.5.json"}

// compileSARIFSchema compiles one schema with format assertions on (uri,
// date-time, ...), which JSON Schema 2020-12 otherwise only annotates.
func compileSARIFSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sarif", name))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(path)
	require.NoError(t, err)
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, doc []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	require.NoError(t, err)
	return sch.Validate(inst)
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	withFlow := sample()
	withFlow.CodeFlow = func(d *analyzer.Diagnostic) []analyzer.Related { return d.Related }
	baselined := sample()
	baselined.Baselined = []analyzer.Diagnostic{baselined.Diagnostics[0]}
	baselined.Diagnostics = baselined.Diagnostics[1:]
	baselined.BaselineFile = "ci/sglint.json"
	reports := map[string]*Report{
		"sample":    sample(),
		"baselined": baselined,
		"empty":     {Tool: sample().Tool, Rules: []*analyzer.Rule{ruleErr}, Files: 2},
		"bare":      {},
		"code flow": withFlow,
	}
	for _, name := range sarifSchemas {
		sch := compileSARIFSchema(t, name)
		for what, r := range reports {
			assert.NoError(t, validateSARIF(t, sch, render(t, SARIF, r)), "%s against %s", what, name)
		}
	}
}

// The validator must be able to fail: a level SARIF does not define, a
// result without a message, and an unknown top-level property are each
// rejected by both schemas.
func TestSARIFSchemaRejectsInvalidLogs(t *testing.T) {
	var good map[string]any
	require.NoError(t, json.Unmarshal(render(t, SARIF, sample()), &good))
	breakers := map[string]func(log map[string]any){
		"bad level": func(log map[string]any) {
			result(log)["level"] = "fatal"
		},
		"no message": func(log map[string]any) {
			delete(result(log), "message")
		},
		"unknown property": func(log map[string]any) {
			log["sglint"] = true
		},
	}
	for _, name := range sarifSchemas {
		sch := compileSARIFSchema(t, name)
		for what, breakIt := range breakers {
			var log map[string]any
			require.NoError(t, json.Unmarshal(render(t, SARIF, sample()), &log))
			breakIt(log)
			doc, err := json.Marshal(log)
			require.NoError(t, err)
			assert.Error(t, validateSARIF(t, sch, doc), "%s against %s", what, name)
		}
	}
}

func result(log map[string]any) map[string]any {
	run := log["runs"].([]any)[0].(map[string]any)
	return run["results"].([]any)[0].(map[string]any)
}

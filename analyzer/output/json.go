package output

import (
	"encoding/json"
	"io"

	"github.com/sglint/sglint/analyzer"
)

// jsonDiagnostic fixes the keys and their order of the json format.
type jsonDiagnostic struct {
	Rule      string             `json:"rule"`
	Name      string             `json:"name"`
	Severity  string             `json:"severity"`
	Path      string             `json:"path"`
	Line      int                `json:"line"`
	Column    int                `json:"column"`
	EndLine   int                `json:"end_line"`
	EndColumn int                `json:"end_column"`
	Message   string             `json:"message"`
	Function  string             `json:"function"`
	Record    string             `json:"record"`
	Related   []analyzer.Related `json:"related"`
}

// JSON writes one array of findings and nothing else.
func JSON(w io.Writer, r *Report) error {
	out := make([]jsonDiagnostic, 0, len(r.Diagnostics))
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		related := d.Related
		if related == nil {
			related = []analyzer.Related{}
		}
		out = append(out, jsonDiagnostic{
			Rule:      d.Rule.ID,
			Name:      d.Rule.Name,
			Severity:  d.Severity().String(),
			Path:      d.Path,
			Line:      d.Start.Line,
			Column:    d.Start.Column,
			EndLine:   d.End.Line,
			EndColumn: d.End.Column,
			Message:   d.Message,
			Function:  d.Function,
			Record:    d.Record,
			Related:   related,
		})
	}
	return encodeJSON(w, out)
}

// encodeJSON writes v indented, without HTML escaping (`<` stays `<`).
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

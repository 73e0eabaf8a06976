package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Error is one problem in a record file.
type Error struct {
	File   string // as given
	Line   int    // 1-based line (JSON Lines record, or a JSON syntax error); 0 if none
	Record string // the record's id, or "#N" (its position) when it has none
	Field  string // the offending field, "" for the file itself
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if e.Record != "" {
		b.WriteString(": record " + e.Record)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Errors are all the problems found while loading, in file order.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Load reads the records in paths. Each path is
//   - a .json file: one record, or a JSON array of records;
//   - a JSON Lines file (.jsonl or .ndjson, or a .json file holding several
//     JSON values one per line): one record per line, blank lines allowed;
//   - a directory: its *.json, *.jsonl and *.ndjson files, in name order
//     (not its subdirectories).
//
// A record is either wrapped as in the data set, `{"record": {...},
// "datasetVersion": ...}`, or bare (`{"id": ..., ...}`). id, errorClass
// and messagePattern are required; the fields sglint reads must have the
// data set's types (strings, lineNumber an integer, solutions,
// preventionTips and tags lists of strings; null counts as absent); other
// fields are ignored. A file named twice is read once; an id found twice is
// an error. Every problem is reported, as Errors, and no set is returned
// then.
func Load(paths ...string) (*Set, error) {
	l := &loader{seen: map[string]bool{}, ids: map[string]Source{}}
	for _, p := range paths {
		l.path(p)
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	s := NewSet(l.recs)
	s.Files = l.files
	return s, nil
}

type loader struct {
	recs  []*Record
	files []string
	errs  Errors
	seen  map[string]bool // absolute paths already read
	ids   map[string]Source
}

func (l *loader) fail(file string, line int, rec, field, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: file, Line: line, Record: rec, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) path(p string) {
	fi, err := os.Stat(p)
	if err != nil {
		l.fail(p, 0, "", "", "cannot read records: %v", unwrapPathError(err))
		return
	}
	if !fi.IsDir() {
		l.file(p)
		return
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		l.fail(p, 0, "", "", "cannot list records: %v", unwrapPathError(err))
		return
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && (isRecordFile(e.Name()) || isEnvelope(filepath.Join(p, e.Name()))) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		l.fail(p, 0, "", "", "no record files (*.json, *.jsonl, *.ndjson, or *.txt holding a record) in this directory")
	}
	for _, n := range names {
		l.file(filepath.Join(p, n))
	}
}

// isEnvelope: a .txt file of a records directory that holds a JSON record
// (the data set distributes one {"record": ...} envelope per .txt file);
// any other .txt (a README) is not a record file.
func isEnvelope(p string) bool {
	if strings.ToLower(filepath.Ext(p)) != ".txt" {
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	_, wrapped := obj["record"]
	_, bare := obj["id"]
	return wrapped || bare
}

func isRecordFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".ndjson":
		return true
	}
	return false
}

func (l *loader) file(p string) {
	abs, err := filepath.Abs(p)
	if err == nil {
		if l.seen[abs] {
			return
		}
		l.seen[abs] = true
	}
	data, err := os.ReadFile(p)
	if err != nil {
		l.fail(p, 0, "", "", "cannot read records: %v", unwrapPathError(err))
		return
	}
	l.files = append(l.files, p)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	switch ext := strings.ToLower(filepath.Ext(p)); {
	case ext == ".jsonl" || ext == ".ndjson":
		l.lines(p, data)
	case multipleValues(data):
		l.lines(p, data)
	default:
		l.document(p, data)
	}
}

// multipleValues reports a .json file that holds more than one JSON value
// (JSON Lines under a .json name).
func multipleValues(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	return dec.More()
}

// document reads a .json file: one record or an array of them.
func (l *loader) document(p string, data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		l.fail(p, 0, "", "", "empty file: want a record, {\"record\": ...}, or a list of them")
		return
	}
	var v json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil {
		line, msg := syntaxError(data, err)
		l.fail(p, line, "", "", "not valid JSON: %s", msg)
		return
	}
	if kindOf(v) == "a list" {
		var items []json.RawMessage
		_ = json.Unmarshal(v, &items)
		for i, it := range items {
			l.record(p, 0, "#"+strconv.Itoa(i+1), it)
		}
		return
	}
	l.record(p, 0, "", v)
}

// lines reads a JSON Lines file.
func (l *loader) lines(p string, data []byte) {
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var v json.RawMessage
		if err := json.Unmarshal(line, &v); err != nil {
			_, msg := syntaxError(line, err)
			l.fail(p, i+1, "", "", "not valid JSON: %s", msg)
			continue
		}
		l.record(p, i+1, "", v)
	}
}

// syntaxError turns a JSON error into a line (for a syntax error with an
// offset) and a message.
func syntaxError(data []byte, err error) (int, string) {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the bad one included.
		off := min(max(int(se.Offset)-1, 0), len(data))
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		col := off - bytes.LastIndexByte(data[:off], '\n')
		return line, fmt.Sprintf("%v (column %d)", se, col)
	}
	return 0, err.Error()
}

// record decodes one record value (wrapped or bare). pos names it when it
// has no id yet ("#3" in an array).
func (l *loader) record(p string, line int, pos string, v json.RawMessage) {
	src := Source{File: p, Line: line}
	obj, ok := object(v)
	if !ok {
		l.fail(p, line, pos, "", "expected a record object, got %s", kindOf(v))
		return
	}
	version := ""
	if inner, wrapped := obj["record"]; wrapped {
		if v, ok := obj["datasetVersion"]; ok {
			_ = json.Unmarshal(v, &version) // not a string: not known
		}
		if obj, ok = object(inner); !ok {
			l.fail(p, line, pos, "record", "expected an object, got %s", kindOf(inner))
			return
		}
	} else if _, bare := obj["id"]; !bare {
		l.fail(p, line, pos, "", "neither a record (no \"id\") nor a {\"record\": {...}} wrapper")
		return
	}
	d := &decoder{l: l, file: p, line: line, obj: obj, name: pos}
	r := &Record{Source: src}
	r.ID = d.str("id", true)
	if r.ID != "" {
		d.name = r.ID
		if strings.ContainsAny(r.ID, " \t\r\n") {
			d.fail("id", "must not contain spaces, got %q", r.ID)
		}
	}
	r.Slug = d.str("slug", false)
	r.ErrorClass = d.str("errorClass", true)
	r.ErrorType = d.str("errorType", false)
	r.ErrorMessage = d.str("errorMessage", false)
	r.MessagePattern = d.str("messagePattern", true)
	r.Severity = d.str("severity", false)
	r.FilePath = d.str("filePath", false)
	r.LineNumber = d.integer("lineNumber")
	r.SourceCode = d.str("sourceCode", false)
	r.SourceCodeStart = d.integer("sourceCodeStart")
	r.Documentation = d.str("documentation", false)
	r.TriggerScenarios = d.str("triggerScenarios", false)
	r.CommonSituations = d.str("commonSituations", false)
	r.Solutions = d.list("solutions")
	r.PreventionTips = d.list("preventionTips")
	r.HandlingStrategy = d.str("handlingStrategy", false)
	r.Tags = d.list("tags")
	r.ValidationCode = d.str("validationCode", false)
	r.TypeGuard = d.str("typeGuard", false)
	r.TryCatchPattern = d.str("tryCatchPattern", false)
	r.AnalyzedSha = d.str("analyzedSha", false)
	r.DatasetVersion = version
	if v := d.str("datasetVersion", false); v != "" {
		r.DatasetVersion = v
	}
	if r.ErrorClass != "" && !pyname.IsDotted(r.ErrorClass) {
		d.fail("errorClass", "want a Python class name such as RuntimeError, got %q", r.ErrorClass)
	}
	if d.bad {
		return
	}
	if prev, dup := l.ids[r.ID]; dup {
		l.fail(p, line, r.ID, "id", "duplicate record id (also in %s)", prev)
		return
	}
	l.ids[r.ID] = src
	r.compile()
	l.recs = append(l.recs, r)
}

type decoder struct {
	l    *loader
	file string
	line int
	obj  map[string]json.RawMessage
	name string
	bad  bool
}

func (d *decoder) fail(field, format string, args ...any) {
	d.bad = true
	d.l.fail(d.file, d.line, d.name, field, format, args...)
}

// present returns the field's raw value; null counts as absent.
func (d *decoder) present(field string) (json.RawMessage, bool) {
	v, ok := d.obj[field]
	if !ok || kindOf(v) == "null" {
		return nil, false
	}
	return v, true
}

func (d *decoder) str(field string, required bool) string {
	v, ok := d.present(field)
	if !ok {
		if required {
			d.fail(field, "missing (required)")
		}
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		d.fail(field, "expected a string, got %s", kindOf(v))
		return ""
	}
	if required && strings.TrimSpace(s) == "" {
		d.fail(field, "empty (required)")
	}
	return s
}

func (d *decoder) integer(field string) int {
	v, ok := d.present(field)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(string(v))
	if err != nil {
		if kindOf(v) == "a number" {
			d.fail(field, "expected an integer, got %s", v)
		} else {
			d.fail(field, "expected an integer, got %s (%s)", kindOf(v), short(v))
		}
		return 0
	}
	return n
}

func (d *decoder) list(field string) []string {
	v, ok := d.present(field)
	if !ok {
		return nil
	}
	if kindOf(v) != "a list" {
		d.fail(field, "expected a list of strings, got %s", kindOf(v))
		return nil
	}
	var items []json.RawMessage
	_ = json.Unmarshal(v, &items)
	out := make([]string, 0, len(items))
	for i, it := range items {
		var s string
		if json.Unmarshal(it, &s) != nil {
			d.fail(fmt.Sprintf("%s[%d]", field, i), "expected a string, got %s", kindOf(it))
			return nil
		}
		out = append(out, s)
	}
	return out
}

func object(v json.RawMessage) (map[string]json.RawMessage, bool) {
	if kindOf(v) != "an object" {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return nil, false
	}
	return m, true
}

// kindOf names a JSON value's type for messages.
func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// short is a value cut for a message.
func short(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

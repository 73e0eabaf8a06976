// Package records loads error records (real production failures, in the
// schema of the error-record data set) and finds the statements in Python
// code that raise them: `raise <errorClass>(<message>)` and `assert cond,
// <message>` whose message can match the record's messagePattern.
//
// The records' prose (documentation, triggers, solutions, prevention tips)
// is read from the record files at run time; sglint embeds none of it.
//
// Matching direction. A record's messagePattern is a regular expression
// over concrete messages (what a log shows). The code holds a message
// template: a string whose f-string fields, %-conversions, .format() fields
// and non-literal concatenated parts are unknown at analysis time. A site
// matches when some message the template can produce matches the pattern
// in full (like Python's re.fullmatch): holes stand for any text, the
// pattern is never turned into a literal search of the code. So the record
// "No transfer plan for peer .*" (or the concrete "No transfer plan for
// peer decode-3") matches f"No transfer plan for peer {peer}", and a
// message that gained a suffix in the code stops matching (the record then
// shows zero sites in `sglint records`: stale). A template with no literal
// text at all (`raise RuntimeError(str(e))`) matches nothing.
package records

import (
	"path/filepath"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"

	"github.com/sglint/sglint/analyzer/pyname"
)

// Record is one error record. Only the fields sglint uses are kept; any
// other field of the file is accepted and ignored.
type Record struct {
	ID             string // required
	Slug           string
	ErrorClass     string // required: the exception class, e.g. "RuntimeError"
	ErrorType      string // "exception", ...
	ErrorMessage   string // a concrete message, as seen in production
	MessagePattern string // required: regular expression over the message
	Severity       string
	// FilePath and LineNumber are where the record was raised when it was
	// analysed: a hint to rank sites, never a requirement (code moves).
	FilePath   string
	LineNumber int
	// SourceCode is the code around the raise when recorded, its first
	// line at SourceCodeStart: evidence that pins a site whose message
	// alone says too little.
	SourceCode      string
	SourceCodeStart int

	Documentation    string
	TriggerScenarios string
	CommonSituations string
	Solutions        []string
	PreventionTips   []string
	HandlingStrategy string
	Tags             []string
	// ValidationCode, TypeGuard and TryCatchPattern are the record's
	// guards as code (Python, or prose): Guards reads them.
	ValidationCode  string
	TypeGuard       string
	TryCatchPattern string

	// DatasetVersion is the data set's version the record comes from (the
	// wrapper's datasetVersion), AnalyzedSha the commit it was analysed at.
	DatasetVersion string
	AnalyzedSha    string

	// Source is where the record was read.
	Source Source
	// Builtin: the record is one sglint ships (its rules derive from it),
	// not read from a file; it carries no prose.
	Builtin bool

	prog *syntax.Prog
	// litWords are the words of the pattern's literal text (its whole
	// text when matched literally), set by compile.
	litWords []string
	// PatternNote is set when messagePattern is not an RE2 regular
	// expression (Python-only syntax such as look-arounds): it is then
	// matched as literal text, and the note says why.
	PatternNote string
}

// Source locates a record in its file.
type Source struct {
	File string // as given (relative paths stay relative)
	Line int    // line of a JSON Lines record; 0 for a .json file
}

func (s Source) String() string {
	if s.Line > 0 {
		return s.File + ":" + strconv.Itoa(s.Line)
	}
	return s.File
}

// ClassName is the last part of ErrorClass ("RuntimeError" for
// "builtins.RuntimeError"): code names classes either way.
func (r *Record) ClassName() string { return pyname.Last(r.ErrorClass) }

// FirstTip is the first prevention tip, or "" if there is none.
func (r *Record) FirstTip() string {
	if len(r.PreventionTips) == 0 {
		return ""
	}
	return r.PreventionTips[0]
}

// HintScore says how well path (a file's path, absolute or relative, in
// any separator) agrees with the record's filePath: the number of trailing
// path components they share, so "python/sglang/srt/x/conn.py" scores 2
// against "x/conn.py" and 0 against "y/other.py". It ranks sites; a score
// of 0 never excludes one.
func (r *Record) HintScore(path string) int {
	if r.FilePath == "" || path == "" {
		return 0
	}
	a := splitPath(path)
	b := splitPath(r.FilePath)
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

func splitPath(p string) []string {
	p = strings.ReplaceAll(filepath.ToSlash(p), `\`, "/") // records written on Windows
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// Set is the records of a run, sorted by ID. It is immutable once loaded
// and safe for concurrent use.
type Set struct {
	Records []*Record
	// Files are the files read, in the order read.
	Files   []string
	byID    map[string]*Record
	byClass map[string][]*Record
}

// NewSet builds a set from records (sorted by ID here). Duplicate IDs are
// the caller's problem; Load reports them.
func NewSet(recs []*Record) *Set {
	s := &Set{Records: recs, byID: map[string]*Record{}, byClass: map[string][]*Record{}}
	sort.SliceStable(s.Records, func(i, j int) bool { return s.Records[i].ID < s.Records[j].ID })
	for _, r := range s.Records {
		if r.prog == nil {
			r.compile()
		}
		s.byID[r.ID] = r
		c := r.ClassName()
		s.byClass[c] = append(s.byClass[c], r)
	}
	return s
}

// Len is the number of records (0 for a nil set).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Records)
}

// Lookup finds a record by ID, or else by slug.
func (s *Set) Lookup(key string) *Record {
	if s == nil {
		return nil
	}
	if r, ok := s.byID[key]; ok {
		return r
	}
	for _, r := range s.Records {
		if r.Slug != "" && r.Slug == key {
			return r
		}
	}
	return nil
}

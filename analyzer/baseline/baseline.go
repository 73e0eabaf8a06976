// Package baseline records the findings a legacy tree already has, so that a
// run can hide them and fail only on new ones.
//
// An entry is keyed by rule, path, enclosing function and a hash of the
// source line with whitespace removed, with a count for identical keys; line
// numbers are not part of the key, so edits elsewhere in a file keep the
// baseline valid. Paths are stored relative to the baseline file's
// directory, so a run from another directory still matches.
package baseline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/internal/atomicwrite"
)

// Version of the file format; Read rejects any other.
const Version = 1

// File is a baseline as stored on disk.
type File struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// Entry stands for Count findings with the same key.
type Entry struct {
	Rule     string `json:"rule"`
	Path     string `json:"path"`     // relative to the baseline's directory, forward slashes
	Function string `json:"function"` // qualified name; "" at module level
	LineHash string `json:"line_hash"`
	Count    int    `json:"count"`
	// Message of the first finding when written, for people reviewing the
	// file; not part of the key.
	Message string `json:"message"`
}

type key struct{ rule, path, function, hash string }

func (e Entry) key() key { return key{e.Rule, e.Path, e.Function, e.LineHash} }

// LineHash is the first 16 hex digits of the SHA-256 of line with all
// whitespace removed, so re-indenting a line or reformatting it (a
// formatter adding spaces after commas) keeps its entry.
func LineHash(line string) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(line), "")))
	return hex.EncodeToString(sum[:8])
}

// Build makes a baseline of ds, with paths relative to dir.
func Build(ds []analyzer.Diagnostic, dir string) (*File, error) {
	index := map[key]int{}
	f := &File{Version: Version, Entries: []Entry{}}
	for _, d := range ds {
		p, err := relPath(dir, d.Path)
		if err != nil {
			return nil, err
		}
		e := Entry{Rule: d.Rule.ID, Path: p, Function: d.Function, LineHash: LineHash(d.LineText), Message: d.Message}
		if i, ok := index[e.key()]; ok {
			f.Entries[i].Count++
			continue
		}
		e.Count = 1
		index[e.key()] = len(f.Entries)
		f.Entries = append(f.Entries, e)
	}
	f.sort()
	return f, nil
}

func (f *File) sort() {
	slices.SortStableFunc(f.Entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Function, b.Function), cmp.Compare(a.LineHash, b.LineHash))
	})
}

// relPath turns a diagnostic path (absolute or relative to the working
// directory) into one relative to dir with forward slashes.
func relPath(dir, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil {
		return filepath.ToSlash(abs), nil
	}
	return filepath.ToSlash(rel), nil
}

// Marshal renders the baseline deterministically: sorted entries, two-space
// indentation, a final newline.
func (f *File) Marshal() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		panic(err) // plain strings and ints always encode
	}
	return buf.Bytes()
}

// Findings is the number of findings the baseline stands for.
func (f *File) Findings() int {
	n := 0
	for _, e := range f.Entries {
		n += e.Count
	}
	return n
}

// Write builds a baseline of ds and stores it at path atomically, with
// paths relative to path's directory.
func Write(path string, ds []analyzer.Diagnostic) (*File, error) {
	f, err := Build(ds, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil { // `--write-baseline ci/sglint.json` in a fresh checkout
			return nil, fmt.Errorf("cannot write baseline: %w", err)
		}
	}
	if err := atomicwrite.WriteFile(path, f.Marshal(), 0o644); err != nil {
		return nil, fmt.Errorf("cannot write baseline: %w", err)
	}
	return f, nil
}

// Read loads and validates a baseline file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read baseline: %w", path, err)
	}
	return Parse(path, data)
}

// Parse decodes and validates a baseline; name is used in errors.
func Parse(name string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a baseline: %s", name, jsonError(data, err))
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d is not supported (want %d); rewrite it with --write-baseline", name, f.Version, Version)
	}
	seen := map[key]bool{}
	for i, e := range f.Entries {
		switch {
		case e.Rule == "" || e.Path == "":
			return nil, fmt.Errorf("%s: entry %d: rule and path are required", name, i)
		case len(e.LineHash) != 16 || strings.Trim(e.LineHash, "0123456789abcdef") != "":
			return nil, fmt.Errorf("%s: entry %d: line_hash %q is not 16 lowercase hex digits", name, i, e.LineHash)
		case e.Count < 1:
			return nil, fmt.Errorf("%s: entry %d: count must be at least 1", name, i)
		case seen[e.key()]:
			return nil, fmt.Errorf("%s: entry %d: duplicate of an earlier entry (same rule, path, function and line_hash)", name, i)
		}
		seen[e.key()] = true
	}
	return &f, nil
}

// jsonError adds a line number to JSON syntax and type errors.
func jsonError(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}

// Scope says what a run could have found: entries outside it are neither
// matched nor reported stale (a run on a few files, or with a few rules,
// must not call the rest of the baseline stale).
type Scope struct {
	Paths map[string]bool // display paths of the files checked; nil means all
	Rules map[string]bool // IDs of the rules run; nil means all
}

// Outcome of applying a baseline.
type Outcome struct {
	Kept []analyzer.Diagnostic // findings the baseline does not cover, in input order
	// Covered are the findings it covers, in input order: a report that
	// must not read as "fixed" (SARIF for code scanning) keeps them, marked.
	Covered []analyzer.Diagnostic
	Stale   []Entry // entries (in scope) with unmatched findings; Count is how many
}

// Apply hides the findings the baseline covers. dir is the baseline's
// directory; ds are the run's findings (display paths).
func (f *File) Apply(ds []analyzer.Diagnostic, dir string, scope Scope) (*Outcome, error) {
	left := map[key]int{}
	for _, e := range f.Entries {
		left[e.key()] += e.Count
	}
	out := &Outcome{Kept: []analyzer.Diagnostic{}}
	for _, d := range ds {
		p, err := relPath(dir, d.Path)
		if err != nil {
			return nil, err
		}
		k := key{d.Rule.ID, p, d.Function, LineHash(d.LineText)}
		if left[k] > 0 {
			left[k]--
			out.Covered = append(out.Covered, d)
			continue
		}
		out.Kept = append(out.Kept, d)
	}
	inScope := map[string]bool{}
	for p := range scope.Paths {
		rel, err := relPath(dir, p)
		if err != nil {
			return nil, err
		}
		inScope[rel] = true
	}
	for _, e := range f.Entries {
		n := left[e.key()]
		if n == 0 || scope.Paths != nil && !inScope[e.Path] || scope.Rules != nil && !scope.Rules[e.Rule] {
			continue
		}
		e.Count = n
		left[e.key()] = 0
		out.Stale = append(out.Stale, e)
	}
	return out, nil
}

// String describes a stale entry for a warning line.
func (e Entry) String() string {
	where := e.Path
	if e.Function != "" {
		where += " in " + e.Function
	}
	return fmt.Sprintf("%s %s (line hash %s) x%d: %s", e.Rule, where, e.LineHash, e.Count, e.Message)
}

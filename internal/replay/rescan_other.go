//go:build !(linux && (amd64 || arm64))

package replay

import "time"

// Rescan is what a record's paths say now (rescan.go): not taken here,
// where the statter reads no raw stat, so the run walks.
type Rescan struct {
	Root   string
	Inputs []Input
	Dirs   []string
}

// Rescan returns false here: the run walks.
func (r *Record) Rescan(inputs []byte) (*Rescan, bool) { return nil, false }

// Has reports nothing here.
func (s *Rescan) Has(dir, name string) bool { return false }

// Record is never called here.
func (s *Rescan) Record(began time.Time) *Record { return New(began) }

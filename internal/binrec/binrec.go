// Package binrec writes and reads the small binary records sglint keeps
// between runs (directory listings, replayed runs): little-endian fixed
// integers, varints and length-prefixed strings. A Reader works over one
// string, so the strings it returns share that string's memory: decoding
// allocates per record, not per name.
package binrec

import "encoding/binary"

// AppendString appends s with its length.
func AppendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

// Reader reads a record. Bad is set at the first short or malformed field;
// every later read returns a zero value.
type Reader struct {
	S   string
	Off int
	Bad bool
}

// Done reports whether the record was read whole and well.
func (r *Reader) Done() bool { return !r.Bad && r.Off == len(r.S) }

func (r *Reader) Uvarint() uint64 {
	if r.Bad {
		return 0
	}
	var v uint64
	for shift := uint(0); shift < 64 && r.Off < len(r.S); shift += 7 {
		c := r.S[r.Off]
		r.Off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.Bad = true
	return 0
}

// Varint reads a zig-zag signed varint (binary.AppendVarint).
func (r *Reader) Varint() int64 {
	u := r.Uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *Reader) fixed(n int) uint64 {
	if r.Bad || r.Off+n > len(r.S) {
		r.Bad = true
		return 0
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(r.S[r.Off+i])
	}
	r.Off += n
	return v
}

func (r *Reader) Uint64() uint64 { return r.fixed(8) }

func (r *Reader) Uint32() uint32 { return uint32(r.fixed(4)) }

func (r *Reader) Byte() byte { return byte(r.fixed(1)) }

// Str reads a string AppendString wrote: a substring of S.
func (r *Reader) Str() string {
	n := r.Uvarint()
	if r.Bad || n > uint64(len(r.S)-r.Off) {
		r.Bad = true
		return ""
	}
	s := r.S[r.Off : r.Off+int(n)]
	r.Off += int(n)
	return s
}

package syntax

import (
	"encoding/binary"
	"errors"
)

// A snapshot is what Reparse needs of a version of a file, kept where the
// version itself is not (a cache): its packed tree, its size, and a hash
// of each of its lines, which say where a new version differs. Hashes
// make the edit whole lines; a line whose hash collides with another
// (FNV-1a of 64 bits with its length, the low bit replaced by whether the
// line joins the next) would be taken as unchanged.
//
//	uvarint(len(packed)) packed uvarint(size) uvarint(lines) lines x 8 bytes (little endian)

var errSnapshot = errors.New("syntax: malformed snapshot")

// Snapshot returns the snapshot of the version src whose tree Pack gave
// as packed.
func Snapshot(packed, src []byte) []byte {
	starts := LineStarts(src)
	n := lineCount(src, starts)
	out := make([]byte, 0, 3*binary.MaxVarintLen64+len(packed)+8*n)
	out = binary.AppendUvarint(out, uint64(len(packed)))
	out = append(out, packed...)
	out = binary.AppendUvarint(out, uint64(len(src)))
	out = binary.AppendUvarint(out, uint64(n))
	for i := range n {
		out = binary.LittleEndian.AppendUint64(out, lineHash(line(src, starts, i)))
	}
	return out
}

// lineCount is the number of lines of src, whose line starts are starts:
// a line feed at the end starts no line.
func lineCount(src []byte, starts []uint32) int {
	n := len(starts)
	if int(starts[n-1]) == len(src) {
		n--
	}
	return n
}

// line is the i-th line of src, its line feed included.
func line(src []byte, starts []uint32, i int) []byte {
	end := len(src)
	if i+1 < len(starts) {
		end = int(starts[i+1])
	}
	return src[starts[i]:end]
}

// lineHash hashes one line (FNV-1a, 64 bits, with its length); its low
// bit says instead whether the line ends with a backslash before its line
// break (it joins the next), which is all lineDiff needs to know of the
// last old line an edit changed.
func lineHash(line []byte) uint64 {
	h := uint64(14695981039346656037) ^ uint64(len(line))
	for _, b := range line {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h&^1 | joinsNext(line)
}

// joinsNext is 1 when line ends with a line break that does not start a
// line of its own (lineBreakAt: a backslash before it).
func joinsNext(line []byte) uint64 {
	n := len(line)
	if n == 0 || line[n-1] != '\n' || lineBreakAt(func(j int) byte { return line[j] }, n) {
		return 0
	}
	return 1
}

// SnapshotPacked returns the packed tree a snapshot holds, for Unpack.
func SnapshotPacked(snap []byte) ([]byte, error) {
	packed, _, _, err := readSnapshot(snap)
	return packed, err
}

func readSnapshot(snap []byte) (packed []byte, size int, hashes []byte, err error) {
	r := reader{b: snap}
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		return nil, 0, nil, errSnapshot
	}
	packed, r.b = r.b[:n], r.b[n:]
	sz := r.uvarint()
	k := r.uvarint()
	if r.bad || sz > 1<<31 || k > uint64(len(r.b))/8 || uint64(len(r.b)) != 8*k {
		return nil, 0, nil, errSnapshot
	}
	return packed, int(sz), r.b, nil
}

// ReparseSnapshot parses src, a new version of the file snap was taken
// of, as Reparse does. The result equals Parse(src).
func (p *Parser) ReparseSnapshot(snap, src []byte) (*Tree, error) {
	if len(src) > bigSource {
		return p.Parse(src) // a data file's tree is not its source's
	}
	if packed, size, hashes, err := readSnapshot(snap); err == nil {
		starts := LineStarts(src)
		if e, ok := lineDiff(hashes, size, src, starts); ok {
			if nodes, clean, err := unpackNodes(size, packed); err == nil && clean {
				if t := p.splice(nodes, e, src, starts); t != nil {
					return t, nil
				}
			}
		}
	}
	return p.Parse(src)
}

// lineDiff is Diff by whole lines, against a version known by the hashes
// of its lines and its size; starts are src's line starts.
func lineDiff(hashes []byte, size int, src []byte, starts []uint32) (Edit, bool) {
	m := len(hashes) / 8
	old := func(i int) uint64 { return binary.LittleEndian.Uint64(hashes[8*i:]) }
	n := lineCount(src, starts)
	at := func(i int) int { // the start of src's line i; len(src) for n
		if i == n {
			return len(src)
		}
		return int(starts[i])
	}
	a := 0
	for a < min(m, n) && old(a) == lineHash(line(src, starts, a)) {
		a++
	}
	c := 0
	for c < min(m, n)-a && old(m-1-c) == lineHash(line(src, starts, n-1-c)) {
		c++
	}
	suffix := len(src) - at(n-c)
	// With a line after them (c > 0), the old lines changed end with a
	// line feed, and the last one's hash says whether it joins the next.
	e := Edit{Start: at(a), OldEnd: size - suffix, NewEnd: len(src) - suffix, lines: c > 0}
	if c > 0 && m-1-c >= a {
		e.joins = old(m-1-c)&1 == 1
	}
	return e, e.OldEnd >= e.Start && e.NewEnd >= e.Start
}

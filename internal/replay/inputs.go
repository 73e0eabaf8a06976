package replay

import (
	"encoding/binary"
	"io/fs"
	"strings"
	"unsafe"

	"github.com/sglint/sglint/internal/binrec"
)

// A run also keeps its input set beside its record (EncodeInputs), so
// that the next run, when the record no longer holds only because some of
// its input files were written in place, can take the set from there
// instead of walking the tree again (Rescan). That is exact: a file added,
// removed or renamed changes its directory's stamp, and a settings or
// ignore file's change its own, and the record holds all of those.

// Input is one file of a run's input set, as the driver had it. Info is
// the stat Rescan took; it is not encoded.
type Input struct {
	Path   string // as shown
	Abs    string // a path the record holds
	Report bool   // reported on (else a context file)
	Named  bool   // named on the command line
	Walked bool   // found by the walk of a path given
	Info   fs.FileInfo
}

const inputsMagic = "sglint inputs 2\n"

const (
	inputReport = 1 << iota
	inputNamed
	inputWalked
	inputShownUnder // shown as the display prefix joined with its path in the record
)

// EncodeInputs encodes the input set of the run r records, once its
// stamps are encoded (EncodeStamps): the time the run began and the
// record's base, which tie the two together, the module root, a display
// prefix, then for each input the index of its path among the record's
// entries, its flags and, when the prefix does not give it, its path as
// shown. Nil when r has no encoded stamps or does not hold an input.
func (r *Record) EncodeInputs(root string, ins []Input) []byte {
	if r.stamps == "" {
		return nil
	}
	at := make(map[string]int, r.n) // path as recorded -> entry index
	d := binrec.Reader{S: r.stamps}
	for i := range r.n {
		e, ok := decodeEntry(&d)
		if !ok {
			return nil
		}
		if e.kind == mustMatch {
			at[e.path] = i
		}
	}
	prefix := ""
	if len(ins) > 0 {
		prefix = shownPrefix(ins[0].Path, relativeTo(r.base, ins[0].Abs))
	}
	out := make([]byte, 0, len(inputsMagic)+32+len(r.base)+len(root)+len(prefix)+4*len(ins))
	out = append(out, inputsMagic...)
	out = binary.LittleEndian.AppendUint64(out, uint64(r.Began))
	out = binrec.AppendString(out, r.base)
	out = binrec.AppendString(out, root)
	out = binrec.AppendString(out, prefix)
	out = binary.AppendUvarint(out, uint64(len(ins)))
	for i := range ins {
		in := &ins[i]
		rel := relativeTo(r.base, in.Abs)
		idx, ok := at[rel]
		if !ok {
			return nil
		}
		var flags byte
		if in.Report {
			flags |= inputReport
		}
		if in.Named {
			flags |= inputNamed
		}
		if in.Walked {
			flags |= inputWalked
		}
		shownUnder := isJoin(in.Path, prefix, rel)
		if shownUnder {
			flags |= inputShownUnder
		}
		out = binary.AppendUvarint(out, uint64(idx))
		out = append(out, flags)
		if !shownUnder {
			out = binrec.AppendString(out, in.Path)
		}
	}
	return out
}

// shownPrefix is what shown has before rel ("python/sglang" for
// "python/sglang/srt/x.py" and "srt/x.py"), "" when shown is rel or does
// not end with it.
func shownPrefix(shown, rel string) string {
	if len(shown) > len(rel) && strings.HasSuffix(shown, rel) && shown[len(shown)-len(rel)-1] == '/' {
		return shown[:len(shown)-len(rel)-1]
	}
	return ""
}

// isJoin reports whether path is prefix joined with rel by a slash (rel
// alone for no prefix), without building it.
func isJoin(path, prefix, rel string) bool {
	if prefix == "" {
		return path == rel
	}
	return len(path) == len(prefix)+1+len(rel) && strings.HasPrefix(path, prefix) &&
		path[len(prefix)] == '/' && strings.HasSuffix(path, rel)
}

// decodeInputs reads what EncodeInputs wrote for r, whose entries are es:
// the module root, the inputs, with their paths as the record holds them
// (relative to its base) in Abs, and for each entry 1 + the index of its
// input (0 for none); false if data is not the input set of r's run. The
// inputs share data's memory, which must not change afterwards.
func (r *Record) decodeInputs(data []byte, es []entry) (root string, ins []Input, inputOf []int32, ok bool) {
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if !strings.HasPrefix(s, inputsMagic) {
		return "", nil, nil, false
	}
	d := binrec.Reader{S: s, Off: len(inputsMagic)}
	if int64(d.Uint64()) != r.Began || d.Str() != r.base {
		return "", nil, nil, false
	}
	root = d.Str()
	prefix := d.Str()
	n := d.Uvarint()
	if d.Bad || n > uint64(len(es)) {
		return "", nil, nil, false
	}
	ins, inputOf = make([]Input, n), make([]int32, len(es))
	for k := range ins {
		idx := d.Uvarint()
		flags := d.Byte()
		if d.Bad || idx >= uint64(len(es)) || es[idx].kind != mustMatch || inputOf[idx] != 0 {
			return "", nil, nil, false
		}
		inputOf[idx] = int32(k + 1)
		rel := es[idx].path
		shown := rel
		switch {
		case flags&inputShownUnder == 0:
			shown = d.Str()
		case prefix != "":
			shown = prefix + "/" + rel
		}
		ins[k] = Input{Path: shown, Abs: rel, Report: flags&inputReport != 0,
			Named: flags&inputNamed != 0, Walked: flags&inputWalked != 0}
	}
	return root, ins, inputOf, d.Done()
}

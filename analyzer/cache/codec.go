package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// Marshal appends the encoding of *v to dst; v must be a non-nil pointer.
// Unmarshal decodes it into *v. The encoding follows the Go type: structs
// field by field (unexported fields too), integers as varints, strings and
// slices with their length (nil and empty slices stay distinct), pointers
// with a presence byte; slices and arrays of integer-only structs (such as
// pymodel.Pos) are copied as their memory image. Maps, interfaces, channels
// and functions are not supported.
//
// The format is private to one build of sglint: the store keys entries by
// the executable's identity, so a type that changes shape changes keys, and
// the codec needs no schema. It is several times faster than encoding/gob
// for many small values of the same types, because each type's plan is
// compiled once per process, not once per stream.
func Marshal(dst []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return dst, errors.New("cache: Marshal needs a non-nil pointer")
	}
	pl, err := planOf(rv.Type().Elem())
	if err != nil {
		return dst, err
	}
	return pl.encode(dst, rv.UnsafePointer()), nil
}

// Unmarshal decodes data, written by Marshal for the same type, into *v.
// Damaged data gives an error (never a panic); *v is then unspecified.
func Unmarshal(data []byte, v any) (err error) { return unmarshal(data, v, false) }

// UnmarshalShared is Unmarshal with the decoded strings and byte slices
// pointing into data instead of copied: data must not change afterwards,
// and stays in memory while any of them does. For values with many small
// strings (a file's summary), it saves an allocation per string; for a
// bundle of records, a copy of each.
func UnmarshalShared(data []byte, v any) error { return unmarshal(data, v, true) }

func unmarshal(data []byte, v any, share bool) (err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("cache: Unmarshal needs a non-nil pointer")
	}
	pl, err := planOf(rv.Type().Elem())
	if err != nil {
		return err
	}
	d := decoder{b: data, share: share}
	pl.decode(&d, rv.UnsafePointer())
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	return d.err
}

var errCorrupt = errors.New("cache: corrupt entry")

// plan says how to encode one type.
type plan struct {
	typ  reflect.Type
	kind reflect.Kind
	size uintptr
	// flat types hold only integers: their memory image is their encoding.
	flat   bool
	fields []fieldPlan // struct
	elem   *plan       // slice, array, pointer
	n      int         // array length
	min    int         // fewest bytes an encoded value takes
}

type fieldPlan struct {
	off uintptr
	p   *plan
}

var plans sync.Map // reflect.Type -> *plan

func planOf(t reflect.Type) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(*plan), nil
	}
	building := map[reflect.Type]*plan{}
	p, err := compile(t, building)
	if err != nil {
		return nil, err
	}
	for t, p := range building {
		plans.LoadOrStore(t, p)
	}
	return p, nil
}

func compile(t reflect.Type, building map[reflect.Type]*plan) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(*plan), nil
	}
	if p, ok := building[t]; ok {
		return p, nil // a recursive type: filled in below
	}
	p := &plan{typ: t, kind: t.Kind(), size: t.Size(), min: 1}
	building[t] = p
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.flat = true
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64:
	case reflect.Slice, reflect.Pointer:
		e, err := compile(t.Elem(), building)
		if err != nil {
			return nil, err
		}
		p.elem = e
	case reflect.Array:
		e, err := compile(t.Elem(), building)
		if err != nil {
			return nil, err
		}
		p.elem, p.n = e, t.Len()
		p.flat = e.flat
		p.min = p.n * e.min
	case reflect.Struct:
		p.flat = true
		p.min = 0
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fp, err := compile(f.Type, building)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", t, f.Name, err)
			}
			p.fields = append(p.fields, fieldPlan{off: f.Offset, p: fp})
			p.flat = p.flat && fp.flat
			p.min += fp.min
		}
		if p.flat {
			p.min = int(p.size)
		}
	default:
		return nil, fmt.Errorf("cache: cannot encode %s (%s)", t, t.Kind())
	}
	return p, nil
}

func (p *plan) encode(dst []byte, ptr unsafe.Pointer) []byte {
	switch p.kind {
	case reflect.Bool:
		if *(*bool)(ptr) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case reflect.Int:
		return binary.AppendVarint(dst, int64(*(*int)(ptr)))
	case reflect.Int8:
		return binary.AppendVarint(dst, int64(*(*int8)(ptr)))
	case reflect.Int16:
		return binary.AppendVarint(dst, int64(*(*int16)(ptr)))
	case reflect.Int32:
		return binary.AppendVarint(dst, int64(*(*int32)(ptr)))
	case reflect.Int64:
		return binary.AppendVarint(dst, *(*int64)(ptr))
	case reflect.Uint, reflect.Uintptr:
		return binary.AppendUvarint(dst, uint64(*(*uint)(ptr)))
	case reflect.Uint8:
		return append(dst, *(*uint8)(ptr))
	case reflect.Uint16:
		return binary.AppendUvarint(dst, uint64(*(*uint16)(ptr)))
	case reflect.Uint32:
		return binary.AppendUvarint(dst, uint64(*(*uint32)(ptr)))
	case reflect.Uint64:
		return binary.AppendUvarint(dst, *(*uint64)(ptr))
	case reflect.Float32:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(*(*float32)(ptr)))
	case reflect.Float64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(*(*float64)(ptr)))
	case reflect.String:
		s := *(*string)(ptr)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	case reflect.Pointer:
		q := *(*unsafe.Pointer)(ptr)
		if q == nil {
			return append(dst, 0)
		}
		return p.elem.encode(append(dst, 1), q)
	case reflect.Slice:
		hdr := (*sliceHeader)(ptr)
		if hdr.data == nil {
			return append(dst, 0)
		}
		dst = binary.AppendUvarint(dst, uint64(hdr.len)+1)
		return p.elem.encodeMany(dst, hdr.data, hdr.len)
	case reflect.Array:
		return p.elem.encodeMany(dst, ptr, p.n)
	case reflect.Struct:
		if p.flat {
			return append(dst, unsafe.Slice((*byte)(ptr), p.size)...)
		}
		for _, f := range p.fields {
			dst = f.p.encode(dst, unsafe.Add(ptr, f.off))
		}
		return dst
	}
	panic("cache: unreachable") // compile rejects every other kind
}

// encodeMany encodes n consecutive values of p's type starting at ptr.
func (p *plan) encodeMany(dst []byte, ptr unsafe.Pointer, n int) []byte {
	if p.flat && p.kind == reflect.Struct || p.kind == reflect.Uint8 {
		return append(dst, unsafe.Slice((*byte)(ptr), uintptr(n)*p.size)...)
	}
	for i := 0; i < n; i++ {
		dst = p.encode(dst, unsafe.Add(ptr, uintptr(i)*p.size))
	}
	return dst
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

type decoder struct {
	b     []byte
	err   error
	share bool // strings point into b (UnmarshalShared)
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) varint() int64 {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) take(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

// count reads a length for values of at least min bytes each, refusing
// lengths the remaining data cannot hold (no huge allocation from a bad
// byte).
func (d *decoder) count(v uint64, min int) int {
	if v > uint64(len(d.b))/uint64(max(min, 1)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (p *plan) decode(d *decoder, ptr unsafe.Pointer) {
	if d.err != nil {
		return
	}
	switch p.kind {
	case reflect.Bool:
		b := d.take(1)
		if len(b) == 1 && b[0] > 1 {
			d.fail()
		}
		*(*bool)(ptr) = len(b) == 1 && b[0] == 1
	case reflect.Int:
		*(*int)(ptr) = int(d.varint())
	case reflect.Int8:
		v := d.varint()
		if v != int64(int8(v)) {
			d.fail()
		}
		*(*int8)(ptr) = int8(v)
	case reflect.Int16:
		v := d.varint()
		if v != int64(int16(v)) {
			d.fail()
		}
		*(*int16)(ptr) = int16(v)
	case reflect.Int32:
		v := d.varint()
		if v != int64(int32(v)) {
			d.fail()
		}
		*(*int32)(ptr) = int32(v)
	case reflect.Int64:
		*(*int64)(ptr) = d.varint()
	case reflect.Uint, reflect.Uintptr:
		*(*uint)(ptr) = uint(d.uvarint())
	case reflect.Uint8:
		if b := d.take(1); len(b) == 1 {
			*(*uint8)(ptr) = b[0]
		}
	case reflect.Uint16:
		v := d.uvarint()
		if v > math.MaxUint16 {
			d.fail()
		}
		*(*uint16)(ptr) = uint16(v)
	case reflect.Uint32:
		v := d.uvarint()
		if v > math.MaxUint32 {
			d.fail()
		}
		*(*uint32)(ptr) = uint32(v)
	case reflect.Uint64:
		*(*uint64)(ptr) = d.uvarint()
	case reflect.Float32:
		if b := d.take(4); len(b) == 4 {
			*(*float32)(ptr) = math.Float32frombits(binary.LittleEndian.Uint32(b))
		}
	case reflect.Float64:
		if b := d.take(8); len(b) == 8 {
			*(*float64)(ptr) = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	case reflect.String:
		b := d.take(d.uvarint())
		if d.share {
			*(*string)(ptr) = unsafe.String(unsafe.SliceData(b), len(b))
		} else {
			*(*string)(ptr) = string(b)
		}
	case reflect.Pointer:
		b := d.take(1)
		if len(b) == 0 || b[0] > 1 {
			d.fail()
			return
		}
		if b[0] == 0 {
			*(*unsafe.Pointer)(ptr) = nil
			return
		}
		q := reflect.New(p.elem.typ).UnsafePointer()
		p.elem.decode(d, q)
		*(*unsafe.Pointer)(ptr) = q
	case reflect.Slice:
		v := d.uvarint()
		if d.err != nil {
			return
		}
		if v == 0 {
			reflect.NewAt(p.typ, ptr).Elem().SetZero()
			return
		}
		n := d.count(v-1, p.elem.min)
		if d.err != nil {
			return
		}
		if d.share && p.elem.kind == reflect.Uint8 {
			b := d.take(uint64(n))
			reflect.NewAt(p.typ, ptr).Elem().SetBytes(b[:n:n]) // full: an append copies
			return
		}
		s := reflect.MakeSlice(p.typ, n, n)
		reflect.NewAt(p.typ, ptr).Elem().Set(s)
		if n > 0 {
			p.elem.decodeMany(d, s.UnsafePointer(), n)
		}
	case reflect.Array:
		p.elem.decodeMany(d, ptr, p.n)
	case reflect.Struct:
		if p.flat {
			if b := d.take(uint64(p.size)); b != nil {
				copy(unsafe.Slice((*byte)(ptr), p.size), b)
			}
			return
		}
		for _, f := range p.fields {
			f.p.decode(d, unsafe.Add(ptr, f.off))
		}
	}
}

func (p *plan) decodeMany(d *decoder, ptr unsafe.Pointer, n int) {
	if p.flat && p.kind == reflect.Struct || p.kind == reflect.Uint8 {
		if b := d.take(uint64(n) * uint64(p.size)); b != nil {
			copy(unsafe.Slice((*byte)(ptr), uintptr(n)*p.size), b)
		}
		return
	}
	for i := 0; i < n && d.err == nil; i++ {
		p.decode(d, unsafe.Add(ptr, uintptr(i)*p.size))
	}
}

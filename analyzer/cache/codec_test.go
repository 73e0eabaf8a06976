package cache

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type flatPos struct {
	Node       int32
	Start, End int32
	Line, Col  int32
}

type inner struct {
	Name  string
	Tags  []string
	At    flatPos
	OK    bool
	Bytes []byte
}

type sample struct {
	I     int
	I8    int8
	I16   int16
	I32   int32
	I64   int64
	U     uint
	U8    uint8
	U16   uint16
	U32   uint32
	U64   uint64
	F32   float32
	F64   float64
	B     bool
	S     string
	Arr   [3]int32
	Hash  [32]byte
	Ptr   *inner
	Nil   *inner
	List  []inner
	Empty []inner // empty, not nil
	None  []inner // nil
	Flat  []flatPos
	Deep  [][]string
	priv  string
	self  *sample
}

func TestCodecRoundTrip(t *testing.T) {
	in := &sample{
		I: -1 << 40, I8: -128, I16: 32767, I32: -5, I64: 1 << 62,
		U: 1 << 63, U8: 255, U16: 65535, U32: 1<<32 - 1, U64: 1<<64 - 1,
		F32: 1.5, F64: -2.25, B: true, S: "héllo",
		Arr:   [3]int32{1, -2, 3},
		Hash:  [32]byte{1, 2, 3, 31: 9},
		Ptr:   &inner{Name: "p", Tags: []string{"a", ""}, At: flatPos{1, 2, 3, 4, 5}, OK: true, Bytes: []byte{0, 1}},
		List:  []inner{{Name: "x"}, {Tags: []string{}, Bytes: []byte{}}},
		Empty: []inner{},
		Flat:  []flatPos{{1, 2, 3, 4, 5}, {-1, -2, -3, -4, -5}},
		Deep:  [][]string{nil, {}, {"q"}},
		priv:  "unexported fields are kept",
		self:  &sample{S: "recursive types work"},
	}
	b, err := Marshal(nil, in)
	require.NoError(t, err)
	out := &sample{}
	require.NoError(t, Unmarshal(b, out))
	assert.Equal(t, in, out)
	assert.NotNil(t, out.Empty)
	assert.Nil(t, out.None)
	assert.True(t, reflect.DeepEqual(in, out))

	// Shared strings decode the same, and point into the data.
	shared := &sample{}
	require.NoError(t, UnmarshalShared(b, shared))
	assert.Equal(t, in, shared)
	start, end := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
	p := uintptr(unsafe.Pointer(unsafe.StringData(shared.S)))
	assert.True(t, p >= start && p < end, "the string shares the data")
	p = uintptr(unsafe.Pointer(unsafe.StringData(out.S)))
	assert.False(t, p >= start && p < end, "Unmarshal copies")
	p = uintptr(unsafe.Pointer(unsafe.SliceData(shared.Ptr.Bytes)))
	assert.True(t, p >= start && p < end, "byte slices share the data too")
	assert.Equal(t, len(shared.Ptr.Bytes), cap(shared.Ptr.Bytes), "an append cannot write into the data")
}

func TestCodecRejectsUnsupported(t *testing.T) {
	_, err := Marshal(nil, &struct{ M map[string]int }{})
	assert.Error(t, err)
	_, err = Marshal(nil, &struct{ X any }{})
	assert.Error(t, err)
	assert.Error(t, Unmarshal(nil, sample{}), "not a pointer")
}

// Damaged or cut data is an error, never a panic or a huge allocation.
func TestCodecDamage(t *testing.T) {
	in := &sample{S: "abc", List: []inner{{Name: "n", Tags: []string{"t"}}}, Flat: []flatPos{{1, 2, 3, 4, 5}}, B: true, Ptr: &inner{}}
	b, err := Marshal(nil, in)
	require.NoError(t, err)
	for i := 0; i < len(b); i++ {
		assert.Error(t, Unmarshal(b[:i], &sample{}), "cut at %d", i)
		for _, x := range []byte{0x01, 0x7f, 0x80, 0xff} {
			d := append([]byte(nil), b...)
			d[i] ^= x
			_ = Unmarshal(d, &sample{}) // must not panic
		}
	}
	assert.Error(t, Unmarshal(append(b, 0), &sample{}), "trailing bytes")
	// A length that claims more elements than the data holds.
	assert.Error(t, Unmarshal([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, &[]inner{}))
}

func FuzzUnmarshal(f *testing.F) {
	in := &sample{S: "abc", List: []inner{{Name: "n"}}, Ptr: &inner{Tags: []string{"x"}}}
	b, _ := Marshal(nil, in)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var s, shared sample
		err := Unmarshal(data, &s)
		errShared := UnmarshalShared(data, &shared)
		if (err == nil) != (errShared == nil) {
			t.Fatalf("Unmarshal and UnmarshalShared disagree: %v, %v", err, errShared)
		}
		if err == nil { // compared encoded: DeepEqual fails on NaN
			a, _ := Marshal(nil, &s)
			b, _ := Marshal(nil, &shared)
			if !bytes.Equal(a, b) {
				t.Fatalf("Unmarshal and UnmarshalShared decode differently")
			}
		}
	})
}

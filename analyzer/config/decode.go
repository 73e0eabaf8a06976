package config

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// decoder stores generic TOML values (as go-toml decodes them into
// map[string]any) into typed Go values, collecting one located error per
// unknown key or wrong type instead of stopping at the first.
type decoder struct {
	file string
	pos  positions
	errs Errors
}

func (d *decoder) errorf(path []string, format string, args ...any) {
	at := d.pos.at(path)
	d.errs = append(d.errs, &Error{File: d.file, Line: at.line, Column: at.column,
		Key: dotted(path), Msg: fmt.Sprintf(format, args...)})
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// decode stores v into dst. Struct fields not present in v keep their
// values (the defaults); arrays and tables replace what was there.
func (d *decoder) decode(path []string, v any, dst reflect.Value) {
	if dst.CanAddr() && dst.Addr().Type().Implements(textUnmarshaler) {
		s, ok := v.(string)
		if !ok {
			d.errorf(path, "expected a string, got %s", tomlType(v))
			return
		}
		if err := dst.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			d.errorf(path, "%v", err)
		}
		return
	}
	switch dst.Kind() {
	case reflect.Pointer:
		nv := reflect.New(dst.Type().Elem())
		d.decode(path, v, nv.Elem())
		dst.Set(nv)
	case reflect.Interface:
		if dst.NumMethod() != 0 {
			d.errorf(path, "option type %s is not supported", dst.Type())
			return
		}
		dst.Set(reflect.ValueOf(v))
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		dst.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := v.(int64)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		if dst.OverflowInt(i) {
			d.errorf(path, "%d is out of range", i)
			return
		}
		dst.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i, ok := v.(int64)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		if i < 0 || dst.OverflowUint(uint64(i)) {
			d.errorf(path, "%d is out of range", i)
			return
		}
		dst.SetUint(uint64(i))
	case reflect.Float32, reflect.Float64:
		switch n := v.(type) {
		case float64:
			dst.SetFloat(n)
		case int64:
			dst.SetFloat(float64(n))
		default:
			d.mismatch(path, v, dst.Type())
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		out := reflect.MakeSlice(dst.Type(), len(arr), len(arr))
		for i, e := range arr {
			d.decode(append(path, fmt.Sprintf("[%d]", i)), e, out.Index(i))
		}
		dst.Set(out)
	case reflect.Map:
		tbl, ok := v.(map[string]any)
		if !ok || dst.Type().Key().Kind() != reflect.String {
			d.mismatch(path, v, dst.Type())
			return
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(tbl))
		for _, k := range sortedKeys(tbl) {
			e := reflect.New(dst.Type().Elem()).Elem()
			d.decode(append(path, k), tbl[k], e)
			out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), e)
		}
		dst.Set(out)
	case reflect.Struct:
		tbl, ok := v.(map[string]any)
		if !ok {
			d.mismatch(path, v, dst.Type())
			return
		}
		fields := structFields(dst.Type())
		for _, k := range sortedKeys(tbl) {
			i, ok := fields[k]
			if !ok {
				d.errorf(append(path, k), "unknown key%s", didYouMean(k, fieldNames(fields)))
				continue
			}
			d.decode(append(path, k), tbl[k], dst.FieldByIndex(i))
		}
	default:
		d.errorf(path, "option type %s is not supported", dst.Type())
	}
}

func (d *decoder) mismatch(path []string, v any, want reflect.Type) {
	d.errorf(path, "expected %s, got %s", describe(want), tomlType(v))
}

// structFields maps TOML keys to field index paths: the `toml` tag's name,
// or the field name when untagged; `toml:"-"` and unexported fields are
// skipped. The fields of an untagged embedded struct are keys of the
// outer table, as encoding/json does, so that rules can share options
// (sendpath.EntryOptions); an outer field wins over an embedded one.
func structFields(t reflect.Type) map[string][]int {
	m := map[string][]int{}
	var embedded [][]int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			embedded = append(embedded, []int{i})
			continue
		}
		if !f.IsExported() {
			continue
		}
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		m[name] = []int{i}
	}
	for _, idx := range embedded {
		for k, sub := range structFields(t.Field(idx[0]).Type) {
			if _, ok := m[k]; !ok {
				m[k] = append(slices.Clone(idx), sub...)
			}
		}
	}
	return m
}

func fieldNames(fields map[string][]int) []string {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tomlType names the TOML type of a decoded value.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	default:
		return "a date/time"
	}
}

// describe names the TOML shape a Go type accepts.
func describe(t reflect.Type) string {
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "a string"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return describe(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array of " + plural(describe(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "a table"
	}
	return t.String()
}

// plural turns "a string" into "strings", "an array of strings" into
// "arrays of strings".
func plural(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "an "), "a ")
	head, tail, found := strings.Cut(s, " of ")
	if found {
		return head + "s of " + tail
	}
	return s + "s"
}

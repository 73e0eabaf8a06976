package config

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// position is where a key or an array element is written in a file.
type position struct{ line, column int }

// positions maps key paths of a TOML document to where they are written, so
// that errors found after decoding (an unknown key, a wrong type, an
// unknown rule ID) can name a line. Array elements are indexed as "[i]".
// go-toml's decoder reports positions only for syntax errors; its
// unstable.Parser gives every key's byte range, which this index keeps.
type positions map[string]position

func pathKey(path []string) string { return strings.Join(path, "\x00") }

// indexPositions walks the document's expressions. The document already
// decoded without error, so the parser cannot fail here.
func indexPositions(data []byte) positions {
	pos := positions{}
	p := &unstable.Parser{}
	p.Reset(data)
	arrayTables := map[string]int{}
	var table []string
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = pos.keys(p, nil, expr.Key())
			if expr.Kind == unstable.ArrayTable {
				k := pathKey(table)
				i := arrayTables[k]
				arrayTables[k]++
				table = append(table, "["+strconv.Itoa(i)+"]")
				pos.add(table, pos[k])
			}
		case unstable.KeyValue:
			pos.keyValue(p, table, expr)
		}
	}
	return pos
}

// keys records the parts of a dotted key under prefix and returns the full
// path. A part keeps the position where it is first written.
func (pos positions) keys(p *unstable.Parser, prefix []string, it unstable.Iterator) []string {
	path := append([]string(nil), prefix...)
	for it.Next() {
		n := it.Node()
		path = append(path, string(n.Data))
		s := p.Shape(n.Raw)
		pos.add(path, position{s.Start.Line, s.Start.Column})
	}
	return path
}

func (pos positions) keyValue(p *unstable.Parser, prefix []string, kv *unstable.Node) {
	path := pos.keys(p, prefix, kv.Key())
	pos.value(p, path, kv.Value())
}

// value records the elements of arrays and the keys of inline tables.
func (pos positions) value(p *unstable.Parser, path []string, v *unstable.Node) {
	switch v.Kind {
	case unstable.Array:
		i := 0
		it := v.Children()
		for it.Next() {
			e := it.Node()
			if e.Kind == unstable.Comment {
				continue
			}
			elem := append(append([]string(nil), path...), "["+strconv.Itoa(i)+"]")
			i++
			if e.Raw.Length > 0 {
				s := p.Shape(e.Raw)
				pos.add(elem, position{s.Start.Line, s.Start.Column})
			}
			pos.value(p, elem, e)
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				pos.keyValue(p, path, kv)
			}
		}
	}
}

func (pos positions) add(path []string, at position) {
	k := pathKey(path)
	if _, ok := pos[k]; !ok && at.line > 0 {
		pos[k] = at
	}
}

// at returns the position of path, or of its nearest recorded ancestor
// (an array written without a position of its own).
func (pos positions) at(path []string) position {
	for n := len(path); n > 0; n-- {
		if p, ok := pos[pathKey(path[:n])]; ok {
			return p
		}
	}
	return position{}
}

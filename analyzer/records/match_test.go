package records

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func lit(s string) Piece { return Piece{Text: s} }

var h = Piece{Hole: true}

func TestMatchTemplate(t *testing.T) {
	cases := []struct {
		pattern string
		tp      Template
		want    bool
	}{
		// Plain text: the whole message must match.
		{"Layer plan is missing for this rank", Template{lit("Layer plan is missing for this rank")}, true},
		{"Layer plan is missing", Template{lit("Layer plan is missing for this rank")}, false},
		{"Layer plan is missing for this rank", Template{lit("Layer plan is missing")}, false},
		// Holes stand for any text, the empty text included.
		{"No transfer plan for peer .*", Template{lit("No transfer plan for peer "), h}, true},
		{"No transfer plan for peer decode-3", Template{lit("No transfer plan for peer "), h}, true},
		{"No transfer plan for peer decode-3", Template{lit("No transfer plan for host "), h}, false},
		{"Unknown segment kv0 for room 17", Template{lit("Unknown segment "), h, lit(" for room "), h}, true},
		{`Unknown segment \w+ for room \d+`, Template{lit("Unknown segment "), h, lit(" for room "), h}, true},
		{`room \d+ failed`, Template{lit("room "), h, lit(" failed")}, true},
		{`room \d+ failed`, Template{lit("room x"), h, lit(" failed")}, false},
		{`a.*b`, Template{h, lit("a"), h}, true},
		{`ab`, Template{h, lit("c"), h}, false},
		{`(?i)kv memory`, Template{lit("KV Memory")}, true},
		{`^KV$`, Template{lit("KV")}, true},
		{`x\bKV`, Template{lit("xKV")}, false},
		{`\bKV`, Template{h, lit("KV")}, true},
		// Not RE2 (a look-ahead): matched as literal text.
		{`peer (?=x)`, Template{lit("peer (?=x)")}, true},
		{`peer (?=x)`, Template{lit("peer x")}, false},
		// All holes: nothing to match on.
		{`.*`, Template{h}, false},
	}
	for _, c := range cases {
		r := &Record{MessagePattern: c.pattern}
		assert.Equal(t, c.want, r.MatchTemplate(c.tp), "%q vs %q", c.pattern, c.tp.String())
	}
	r := &Record{MessagePattern: `peer (?=x)`}
	r.compile()
	assert.Contains(t, r.PatternNote, "matched as literal text")
	assert.True(t, (&Record{MessagePattern: "Ring is not initialised for worker .*"}).MatchMessage("Ring is not initialised for worker 3"))
}

func TestTemplateAppend(t *testing.T) {
	var tp Template
	tp = tp.appendText("a").appendText("b").appendHole().appendHole().appendText("").appendText("c")
	assert.Equal(t, Template{lit("ab"), h, lit("c")}, tp)
	assert.Equal(t, "ab…c", tp.String())
	assert.False(t, Template{h}.HasText())
}

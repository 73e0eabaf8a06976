package records

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Piece is one part of a message template: literal text, or a hole (an
// f-string field, a %-conversion, a .format() field, a concatenated
// expression) that stands for any text.
type Piece struct {
	Text string
	Hole bool
}

// Template is a message as the code builds it. Adjacent texts are merged
// and adjacent holes collapsed.
type Template []Piece

// String renders the template with each hole as "…", for messages and
// tests.
func (tp Template) String() string {
	var b strings.Builder
	for _, p := range tp {
		if p.Hole {
			b.WriteString("…")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// HasText reports whether the template has any literal text: one that is
// all holes says nothing about the message and matches no record.
func (tp Template) HasText() bool {
	for _, p := range tp {
		if !p.Hole && p.Text != "" {
			return true
		}
	}
	return false
}

func (tp Template) appendText(s string) Template {
	if s == "" {
		return tp
	}
	if n := len(tp); n > 0 && !tp[n-1].Hole {
		tp[n-1].Text += s
		return tp
	}
	return append(tp, Piece{Text: s})
}

func (tp Template) appendHole() Template {
	if n := len(tp); n > 0 && tp[n-1].Hole {
		return tp
	}
	return append(tp, Piece{Hole: true})
}

func (tp Template) appendAll(o Template) Template {
	for _, p := range o {
		if p.Hole {
			tp = tp.appendHole()
		} else {
			tp = tp.appendText(p.Text)
		}
	}
	return tp
}

// compile prepares the record's pattern; a pattern RE2 cannot parse is
// matched as literal text.
func (r *Record) compile() {
	re, err := syntax.Parse(r.MessagePattern, syntax.Perl)
	if err == nil {
		if r.prog, err = syntax.Compile(re.Simplify()); err == nil {
			if r.ErrorMessage == "" || r.MessagePattern != r.ErrorMessage || progMatches(r.prog, Template{{Text: r.ErrorMessage}}) {
				var b strings.Builder
				literalText(&b, re)
				r.litWords = words(b.String())
				return
			}
			// The pattern is the record's own message, whose regex
			// characters (`(ret=-1)`) keep it from matching itself: a
			// literal message, not a regular expression.
			r.PatternNote = "the record's own message, which as a regular expression does not match itself " +
				"(regex characters in it): matched as literal text"
		}
	}
	if r.PatternNote == "" {
		r.PatternNote = "not an RE2 regular expression (" + errText(err) + "): matched as literal text"
	}
	// Records decoded from JSON are valid UTF-8; others get U+FFFD.
	literal := regexp.QuoteMeta(strings.ToValidUTF8(r.MessagePattern, "\uFFFD"))
	re, _ = syntax.Parse(literal, syntax.Perl)
	r.prog, _ = syntax.Compile(re)
	r.litWords = words(r.MessagePattern)
}

// literalText writes the text re requires literally, in order, with a
// space wherever something else (a class, a repetition, an alternation)
// stands between: `No info for room=\d+` gives "No info for room= ".
func literalText(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpConcat, syntax.OpCapture:
		for _, sub := range re.Sub {
			literalText(b, sub)
		}
	default:
		b.WriteByte(' ')
	}
}

func errText(err error) string {
	if e, ok := err.(*syntax.Error); ok {
		return string(e.Code)
	}
	return err.Error()
}

// MatchTemplate reports whether some message the template can produce
// matches the record's pattern in full. Templates without literal text
// never match.
func (r *Record) MatchTemplate(tp Template) bool {
	if !tp.HasText() {
		return false
	}
	if r.prog == nil {
		r.compile()
	}
	return progMatches(r.prog, tp)
}

// MatchMessage reports whether a concrete message matches the pattern in
// full.
func (r *Record) MatchMessage(msg string) bool {
	if r.prog == nil {
		r.compile()
	}
	return progMatches(r.prog, Template{{Text: msg}})
}

// hole is the symbol of a template hole in the rune sequence.
const hole rune = -2

// progMatches simulates the pattern's NFA over the template: a literal
// rune steps the usual way; a hole steps to every state reachable by
// consuming any sequence of runes (including none). Empty-width assertions
// (^, $, \b) next to a hole are taken as satisfiable, which can only make
// a match more likely at a hole's edges.
func progMatches(prog *syntax.Prog, tp Template) bool {
	var syms []rune
	for _, p := range tp {
		if p.Hole {
			syms = append(syms, hole)
			continue
		}
		syms = append(syms, []rune(p.Text)...)
	}
	m := &nfa{prog: prog, on: make([]bool, len(prog.Inst))}
	cur := m.closure(nil, uint32(prog.Start), ctxAt(syms, 0))
	for i, s := range syms {
		var next []uint32
		m.reset()
		if s == hole {
			// Zero runes: the states stay (their closures were taken with an
			// unknown context, since the hole is next to them).
			for _, pc := range cur {
				next = m.closure(next, pc, anyCtx)
			}
			for k := 0; k < len(next); k++ {
				in := &prog.Inst[next[k]]
				if consumes(in) {
					next = m.closure(next, in.Out, anyCtx)
				}
			}
			cur = next
		} else {
			for _, pc := range cur {
				in := &prog.Inst[pc]
				if consumes(in) && in.MatchRune(s) {
					next = m.closure(next, in.Out, ctxAt(syms, i+1))
				}
			}
			cur = next
		}
		if len(cur) == 0 {
			return false
		}
	}
	for _, pc := range cur {
		if prog.Inst[pc].Op == syntax.InstMatch {
			return true
		}
	}
	return false
}

type nfa struct {
	prog *syntax.Prog
	on   []bool
	list []uint32 // states marked in on, for reset
}

func (m *nfa) reset() {
	for _, pc := range m.list {
		m.on[pc] = false
	}
	m.list = m.list[:0]
}

// ctx is the empty-width context at a position; any means unknown (next to
// a hole) and satisfies every assertion.
type ctx struct {
	op  syntax.EmptyOp
	any bool
}

var anyCtx = ctx{any: true}

func ctxAt(syms []rune, i int) ctx {
	before, after := rune(-1), rune(-1)
	if i > 0 {
		before = syms[i-1]
	}
	if i < len(syms) {
		after = syms[i]
	}
	if before == hole || after == hole {
		return anyCtx
	}
	return ctx{op: syntax.EmptyOpContext(before, after)}
}

func consumes(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	}
	return false
}

// closure adds pc and what it reaches without consuming input to dst.
func (m *nfa) closure(dst []uint32, pc uint32, c ctx) []uint32 {
	stack := []uint32{pc}
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.on[pc] {
			continue
		}
		m.on[pc] = true
		m.list = append(m.list, pc)
		in := &m.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if c.any || syntax.EmptyOp(in.Arg)&^c.op == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstFail:
		default: // rune instructions and Match are states of the set
			dst = append(dst, pc)
		}
	}
	return dst
}

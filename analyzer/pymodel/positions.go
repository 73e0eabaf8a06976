package pymodel

import "slices"

// WithoutPositions returns a copy of s with every position and node ID
// zeroed: the structure of the file, wherever its lines moved. A run that
// reuses the last run's selection of files (the checker's plan) compares
// loaded files this way, since what the demands read of a summary does not
// depend on where things are, only on what and in which order; an edit
// that shifts lines then keeps the selection.
func (s *Summary) WithoutPositions() *Summary {
	if s == nil {
		return nil
	}
	c := *s
	c.Classes = zeroed(s.Classes, func(k *Class) {
		k.At, k.NameAt = Pos{}, Pos{}
		k.Fields = zeroed(k.Fields, func(f *Field) { f.At = Pos{} })
	})
	c.Functions = zeroed(s.Functions, func(f *Function) {
		f.At, f.NameAt, f.Def = Pos{}, Pos{}, 0
		f.Params = zeroed(f.Params, func(p *Param) { p.At = Pos{} })
	})
	c.Calls = zeroed(s.Calls, func(x *Call) { x.At = Pos{} })
	c.Args = zeroed(s.Args, func(x *Arg) { x.At = Pos{} })
	c.Imports = zeroed(s.Imports, func(x *Import) { x.At = Pos{} })
	c.Globals = zeroed(s.Globals, func(x *Global) { x.At = Pos{} })
	c.Uses = zeroed(s.Uses, func(x *AttrUse) { x.At = Pos{} })
	c.Tries = zeroed(s.Tries, func(t *Try) {
		t.At, t.BodyStart, t.BodyEnd = Pos{}, 0, 0
		t.Handlers = zeroed(t.Handlers, func(h *Handler) { h.At = Pos{} })
	})
	c.Raises = zeroed(s.Raises, func(x *Raise) { x.At = Pos{} })
	c.Returns = zeroed(s.Returns, func(x *Return) { x.At = Pos{} })
	return &c
}

// zeroed returns a copy of xs with zero applied to each element.
func zeroed[T any](xs []T, zero func(*T)) []T {
	out := slices.Clone(xs)
	for i := range out {
		zero(&out[i])
	}
	return out
}

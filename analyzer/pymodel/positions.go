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
	c.Classes = slices.Clone(s.Classes)
	for i := range c.Classes {
		k := &c.Classes[i]
		k.At, k.NameAt = Pos{}, Pos{}
		k.Fields = slices.Clone(k.Fields)
		for j := range k.Fields {
			k.Fields[j].At = Pos{}
		}
	}
	c.Functions = slices.Clone(s.Functions)
	for i := range c.Functions {
		f := &c.Functions[i]
		f.At, f.NameAt, f.Def = Pos{}, Pos{}, 0
		f.Params = slices.Clone(f.Params)
		for j := range f.Params {
			f.Params[j].At = Pos{}
		}
	}
	c.Calls = slices.Clone(s.Calls)
	for i := range c.Calls {
		c.Calls[i].At = Pos{}
	}
	c.Args = slices.Clone(s.Args)
	for i := range c.Args {
		c.Args[i].At = Pos{}
	}
	c.Imports = slices.Clone(s.Imports)
	for i := range c.Imports {
		c.Imports[i].At = Pos{}
	}
	c.Globals = slices.Clone(s.Globals)
	for i := range c.Globals {
		c.Globals[i].At = Pos{}
	}
	c.Uses = slices.Clone(s.Uses)
	for i := range c.Uses {
		c.Uses[i].At = Pos{}
	}
	c.Tries = slices.Clone(s.Tries)
	for i := range c.Tries {
		t := &c.Tries[i]
		t.At, t.BodyStart, t.BodyEnd = Pos{}, 0, 0
		t.Handlers = slices.Clone(t.Handlers)
		for j := range t.Handlers {
			t.Handlers[j].At = Pos{}
		}
	}
	c.Raises = slices.Clone(s.Raises)
	for i := range c.Raises {
		c.Raises[i].At = Pos{}
	}
	c.Returns = slices.Clone(s.Returns)
	for i := range c.Returns {
		c.Returns[i].At = Pos{}
	}
	return &c
}

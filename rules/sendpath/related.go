package sendpath

import (
	"fmt"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/pymodel"
)

// ChainRelated returns Chain(fn) as related locations for a diagnostic:
// the outermost entry's name ("send entry `C.add_transfer_request`"), then
// each call on the way ("calls `C.send_kvcache`"), ending with the call
// into fn. Steps in files the project did not load are skipped. nil when
// fn is not on a send path.
func (p *Paths) ChainRelated(fn pymodel.FuncRef) []analyzer.Related {
	var out []analyzer.Related
	for i, st := range p.Chain(fn) {
		if i == 0 {
			f := p.File(st.Func.File)
			if f == nil {
				continue
			}
			kind := NameMatch
			if e, ok := p.EntryOf(st.Func); ok {
				kind = e.Kind
			}
			at := p.ix.Func(st.Func).NameAt
			out = append(out, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
				Message: fmt.Sprintf("%s `%s`", kind, p.ShortName(st.Func))})
			continue
		}
		f := p.File(st.Site.File)
		if f == nil {
			continue
		}
		at := p.ix.Call(st.Site).At
		out = append(out, analyzer.Related{Path: f.Path, Line: int(at.Line), Column: int(at.Col),
			Message: p.StepMessage(st)})
	}
	return out
}

// ShortName is a function's name within its module ("Class.method").
func (p *Reach) ShortName(fn pymodel.FuncRef) string { return p.ix.Func(fn).QualName }

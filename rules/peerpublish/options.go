package peerpublish

import "github.com/sglint/sglint/rules/sendpath"

// Options configure SGL003 ([tool.sglint.rules.SGL003]): which functions start a
// send path (see package sendpath).
type Options struct {
	sendpath.EntryOptions
}

// DefaultOptions are the options when nothing is configured.
func DefaultOptions() *Options {
	return &Options{EntryOptions: sendpath.DefaultEntryOptions()}
}

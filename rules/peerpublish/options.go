package peerpublish

import (
	"fmt"
	"slices"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/rules/namepattern"
	"github.com/sglint/sglint/rules/sendpath"
)

// Options configure SGL003 ([tool.sglint.rules.SGL003]): which functions start a
// send path (see package sendpath).
type Options struct {
	// EntryPatterns are shell patterns on function names that start a
	// send path (sendpath.DefaultPatterns by default).
	EntryPatterns []string `toml:"entry-patterns"`
	// Entries are more entry functions by qualified name or dotted tail.
	Entries []string `toml:"entries"`
}

// DefaultOptions are the options when nothing is configured.
func DefaultOptions() *Options {
	return &Options{EntryPatterns: slices.Clone(sendpath.DefaultPatterns)}
}

// Validate rejects patterns path.Match cannot read.
func (o *Options) Validate() error {
	if _, err := namepattern.Compile(o.EntryPatterns); err != nil {
		return fmt.Errorf("entry-patterns: %v", err)
	}
	return nil
}

func (o *Options) sendConfig() sendpath.Config {
	return sendpath.Config{Patterns: o.EntryPatterns, Entries: o.Entries}
}

func options(pass *analyzer.Pass) *Options {
	if o, ok := pass.Options().(*Options); ok && o != nil {
		return o
	}
	return DefaultOptions()
}

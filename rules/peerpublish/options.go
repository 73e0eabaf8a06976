package peerpublish

import (
	"fmt"
	"path"
	"slices"

	"github.com/sglint/sglint/analyzer"
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
	for _, p := range o.EntryPatterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("entry-patterns: %q is not a valid pattern", p)
		}
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

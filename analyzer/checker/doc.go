// Package checker is sglint's driver: it runs rules (package analyzer's
// API) over a set of inputs and collects their diagnostics, as go/analysis
// keeps its checker apart from the API analyzers are written against.
//
// Run loads the inputs (read, parse, summarise, or take them from the
// cache; with the rules' demands, only the files they read, after a
// pre-scan of every file), links the project index, runs the rules on the
// files to report on, applies suppressions and sorts (run.go, load.go,
// demand.go, plan.go, cached.go); a file changed since the cache saw it is
// parsed only where it changed (syntax.ReparseSnapshot). A Session keeps a
// project in memory between checks for long-lived clients such as the
// language server (session.go). It knows no rule by name: rules are values
// registered by package rules.
package checker

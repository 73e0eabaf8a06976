package output

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sglint/sglint/analyzer"
)

// SARIF 2.1.0, shaped for GitHub code scanning: it reads ruleId/ruleIndex,
// level, message.text, the first location's region, partialFingerprints
// and relatedLocations, and the driver's rules[] for the rule help.
const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	srcRoot      = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Invocations        []sarifInvocation                `json:"invocations"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifHelp         `json:"help"`
	DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
	Properties           map[string]string `json:"properties,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string              `json:"level"`
	Message        sarifText           `json:"message"`
	Locations      []sarifLocation     `json:"locations,omitempty"`
	AssociatedRule *sarifRuleReference `json:"associatedRule,omitempty"`
}

type sarifRuleReference struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow    `json:"codeFlows,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          map[string]string  `json:"properties,omitempty"`
}

// sarifSuppression marks a result a baseline hides: kind external (the
// suppression lives outside the source).
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type sarifLocation struct {
	ID               int                    `json:"id,omitempty"` // 1-based for related locations
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location sarifLocation `json:"location"`
}

// SARIF writes a SARIF 2.1.0 log with one run. results is always present,
// empty when nothing was found, so that code scanning closes fixed alerts.
func SARIF(w io.Writer, r *Report) error {
	rules, index := rulesOf(r)
	driver := sarifDriver{
		Name:           r.Tool.Name,
		Version:        r.Tool.Version,
		InformationURI: r.Tool.InformationURI,
		Rules:          make([]sarifRule, 0, len(rules)),
	}
	for _, rule := range rules {
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{sarifInvocationOf(r)},
		Results:     make([]sarifResult, 0, len(r.Diagnostics)),
		ColumnKind:  "unicodeCodePoints",
	}
	if r.SrcRoot != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: dirURI(r.SrcRoot)}}
	}
	// The baseline's findings stay, suppressed: left out, code scanning
	// would close their alerts as fixed. Both lists are sorted: merge them.
	type entry struct {
		d        *analyzer.Diagnostic
		baseline bool
	}
	all := make([]entry, 0, len(r.Diagnostics)+len(r.Baselined))
	for i, j := 0, 0; i < len(r.Diagnostics) || j < len(r.Baselined); {
		if j == len(r.Baselined) || i < len(r.Diagnostics) && analyzer.CompareDiagnostics(&r.Diagnostics[i], &r.Baselined[j]) <= 0 {
			all = append(all, entry{&r.Diagnostics[i], false})
			i++
		} else {
			all = append(all, entry{&r.Baselined[j], true})
			j++
		}
	}
	seen := map[string]int{} // fingerprint -> occurrences so far
	for _, e := range all {
		d := e.d
		fp := d.Fingerprint()
		seen[fp]++
		res := sarifResult{
			RuleID:    d.Rule.ID,
			RuleIndex: index[d.Rule],
			Level:     sarifLevel(d.Severity()),
			Message:   sarifText{Text: d.Message},
			Locations: []sarifLocation{primaryLocation(d)},
			// Same shape as GitHub's own hashes: hash, then the occurrence
			// among identical lines of the file.
			PartialFingerprints: map[string]string{"primaryLocationLineHash": fp + ":" + strconv.Itoa(seen[fp])},
		}
		for j, rel := range d.Related {
			loc := relatedLocation(rel)
			loc.ID = j + 1
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if r.CodeFlow != nil {
			if steps := r.CodeFlow(d); len(steps) > 0 {
				res.CodeFlows = []sarifCodeFlow{codeFlow(steps, d)}
			}
		}
		if d.Record != "" {
			res.Properties = map[string]string{"record": d.Record}
		}
		if e.baseline {
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: "in the baseline " + r.BaselineFile}}
		}
		run.Results = append(run.Results, res)
	}
	return encodeJSON(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifRuleOf(rule *analyzer.Rule) sarifRule {
	sr := sarifRule{
		ID:                   rule.ID,
		Name:                 rule.Name,
		ShortDescription:     sarifText{Text: rule.Title},
		FullDescription:      sarifText{Text: docSection(rule.Doc, "What it does", rule.Title)},
		Help:                 sarifHelp{Text: rule.Doc, Markdown: rule.Doc},
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(rule.Severity)},
	}
	if rule.Record != "" {
		sr.Properties = map[string]string{"record": rule.Record}
	}
	return sr
}

// sarifInvocationOf records what the run could not do: a path it could
// not read or an internal error fails the execution (level error: not
// every file asked for was checked, so the results are not the whole
// picture); a file skipped on purpose is a note, a selected rule that could
// not run a warning.
func sarifInvocationOf(r *Report) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, p := range r.Problems {
		level := "error"
		if p.Warning {
			level = "note" // skipped on purpose: binary, too large
		} else {
			inv.ExecutionSuccessful = false
		}
		msg, _, _ := strings.Cut(p.Message, "\n") // no stack traces in the log
		if p.Internal {
			msg = "internal error: " + msg
		}
		n := sarifNotification{Level: level, Message: sarifText{Text: msg}}
		if p.Path != "" {
			n.Locations = []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: artifact(p.Path)}}}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	for _, nr := range r.NotRun {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level:          "warning",
			Message:        sarifText{Text: fmt.Sprintf("%s (%s) did not run: %s", nr.Rule.ID, nr.Rule.Name, nr.Reason)},
			AssociatedRule: &sarifRuleReference{ID: nr.Rule.ID},
		})
	}
	return inv
}

func primaryLocation(d *analyzer.Diagnostic) sarifLocation {
	loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{
		ArtifactLocation: artifact(d.Path),
		Region: &sarifRegion{
			StartLine: d.Start.Line, StartColumn: d.Start.Column,
			EndLine: d.End.Line, EndColumn: d.End.Column,
		},
	}}
	if d.Function != "" {
		loc.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: d.Function, Kind: "function"}}
	}
	return loc
}

func relatedLocation(rel analyzer.Related) sarifLocation {
	return sarifLocation{
		PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: artifact(rel.Path),
			Region:           &sarifRegion{StartLine: rel.Line, StartColumn: rel.Column},
		},
		Message: &sarifText{Text: rel.Message},
	}
}

// codeFlow lists the steps of a chain, then the finding itself unless a
// step is at its place already (a chain that goes on past the finding,
// such as an entry's call on the way to a raise).
func codeFlow(steps []analyzer.Related, d *analyzer.Diagnostic) sarifCodeFlow {
	var tf sarifThreadFlow
	passes := false
	for _, s := range steps {
		tf.Locations = append(tf.Locations, sarifThreadFlowLocation{Location: relatedLocation(s)})
		passes = passes || s.Path == d.Path && s.Line == d.Start.Line && s.Column == d.Start.Column
	}
	if passes {
		return sarifCodeFlow{ThreadFlows: []sarifThreadFlow{tf}}
	}
	last := primaryLocation(d)
	last.Message = &sarifText{Text: d.Message}
	tf.Locations = append(tf.Locations, sarifThreadFlowLocation{Location: last})
	return sarifCodeFlow{ThreadFlows: []sarifThreadFlow{tf}}
}

func sarifLevel(s analyzer.Severity) string {
	if s == analyzer.Error {
		return "error"
	}
	return "warning"
}

// artifact turns a display path into a URI reference: relative paths are
// resolved against %SRCROOT% (the repository root for code scanning),
// absolute ones become file URIs.
func artifact(p string) sarifArtifactLocation {
	if strings.HasPrefix(p, "/") {
		return sarifArtifactLocation{URI: "file://" + escapePath(p)}
	}
	return sarifArtifactLocation{URI: escapePath(p), URIBaseID: srcRoot}
}

// escapePath percent-encodes each segment; ':' too, so that "a:b.py" is
// not read as a URI scheme.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// dirURI is the file URI of an absolute directory, with the trailing
// slash SARIF requires of a base URI.
func dirURI(dir string) string {
	dir = filepath.ToSlash(dir)
	if !strings.HasPrefix(dir, "/") {
		dir = "/" + dir
	}
	if !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	return "file://" + escapePath(dir)
}

// docSection returns the paragraph text under a "## title" heading of a
// rule's Markdown doc, on one line; fallback if there is none.
func docSection(doc, title, fallback string) string {
	_, rest, ok := strings.Cut(doc, "## "+title+"\n")
	if !ok {
		return fallback
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	text := strings.Join(strings.Fields(rest), " ")
	if text == "" {
		return fallback
	}
	return text
}

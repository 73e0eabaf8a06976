package lsp

import "encoding/json"

// The Language Server Protocol 3.17 messages the server reads and writes,
// reduced to the fields it uses. Unknown fields are ignored when decoding.

// Position is a zero-based line and a character offset in UTF-16 code
// units (the protocol's default encoding, the only one the server offers).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version *int   `json:"version"` // null: the version is not known
}

type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type InitializeParams struct {
	ProcessID        *int               `json:"processId"`
	RootURI          *string            `json:"rootUri"`
	RootPath         *string            `json:"rootPath"`
	WorkspaceFolders []WorkspaceFolder  `json:"workspaceFolders"`
	Capabilities     ClientCapabilities `json:"capabilities"`
	ClientInfo       *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

// ClientCapabilities are the client features the server adapts to.
type ClientCapabilities struct {
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		WorkspaceEdit struct {
			DocumentChanges bool `json:"documentChanges"`
		} `json:"workspaceEdit"`
	} `json:"workspace"`
	TextDocument struct {
		PublishDiagnostics struct {
			RelatedInformation bool `json:"relatedInformation"`
			TagSupport         *struct {
				ValueSet []int `json:"valueSet"`
			} `json:"tagSupport"`
			CodeDescriptionSupport bool `json:"codeDescriptionSupport"`
		} `json:"publishDiagnostics"`
		CodeAction struct {
			CodeActionLiteralSupport *json.RawMessage `json:"codeActionLiteralSupport"`
		} `json:"codeAction"`
	} `json:"textDocument"`
}

type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type ServerCapabilities struct {
	PositionEncoding   string                  `json:"positionEncoding"`
	TextDocumentSync   TextDocumentSyncOptions `json:"textDocumentSync"`
	CodeActionProvider CodeActionOptions       `json:"codeActionProvider"`
	Workspace          struct {
		WorkspaceFolders struct {
			Supported           bool `json:"supported"`
			ChangeNotifications bool `json:"changeNotifications"`
		} `json:"workspaceFolders"`
	} `json:"workspace"`
}

// Text document sync kinds.
const (
	SyncFull        = 1
	SyncIncremental = 2
)

type TextDocumentSyncOptions struct {
	OpenClose bool `json:"openClose"`
	Change    int  `json:"change"`
	Save      struct {
		IncludeText bool `json:"includeText"`
	} `json:"save"`
}

type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// TextDocumentContentChangeEvent replaces Range with Text, or the whole
// document when Range is absent.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range"`
	Text  string `json:"text"`
}

type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// File change types of workspace/didChangeWatchedFiles.
const (
	FileCreated = 1
	FileChanged = 2
	FileDeleted = 3
)

type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

type DidChangeWorkspaceFoldersParams struct {
	Event struct {
		Added   []WorkspaceFolder `json:"added"`
		Removed []WorkspaceFolder `json:"removed"`
	} `json:"event"`
}

type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

// Diagnostic severities and tags.
const (
	SeverityError   = 1
	SeverityWarning = 2
	TagUnnecessary  = 1
)

type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	Tags               []int                          `json:"tags,omitempty"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type CodeDescription struct {
	Href string `json:"href"`
}

type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      struct {
		// Diagnostics are kept as sent, to be echoed back in the action:
		// other servers' diagnostics may carry numeric codes and fields
		// this server does not know.
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Only        []string          `json:"only"`
	} `json:"context"`
}

// contextDiagnostic is what a quick fix reads of a diagnostic in a code
// action's context.
type contextDiagnostic struct {
	Range  Range           `json:"range"`
	Source string          `json:"source"`
	Code   json.RawMessage `json:"code"`
}

const QuickFix = "quickfix"

type CodeAction struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
	Edit        *WorkspaceEdit    `json:"edit"`
}

// WorkspaceEdit carries the edit either way clients read it: documentChanges
// (with the version the edit applies to) when the client supports them,
// changes otherwise.
type WorkspaceEdit struct {
	Changes         map[string][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []TextDocumentEdit    `json:"documentChanges,omitempty"`
}

type TextDocumentEdit struct {
	TextDocument VersionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []TextEdit                      `json:"edits"`
}

type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// Message types of window/logMessage and window/showMessage.
const (
	MessageError   = 1
	MessageWarning = 2
	MessageInfo    = 3
	MessageLog     = 4
)

type LogMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

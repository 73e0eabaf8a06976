module github.com/sglint/sglint

go 1.26.8

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/stretchr/testify v1.11.1
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-python v0.23.6
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

#!/usr/bin/env bash
# Writes an ast-grep project with five rules comparable in reach to sglint's
# (subscripts of self attributes, mem-kind keyword arguments, table stores,
# raises of RuntimeError, iteration over self attributes) into DIR.
set -euo pipefail
DIR=$1
mkdir -p "$DIR/rules"
cat > "$DIR/sgconfig.yml" <<'YML'
ruleDirs: [rules]
YML
cat > "$DIR/rules/self-subscript.yml" <<'YML'
id: self-subscript
language: python
severity: error
message: subscript of registration state
rule: {pattern: "self.$A[$I]"}
YML
cat > "$DIR/rules/mem-kind-kwarg.yml" <<'YML'
id: mem-kind-kwarg
language: python
severity: error
message: memory kind passed
rule:
  kind: keyword_argument
  has: {field: name, regex: "mem_kinds?$"}
YML
cat > "$DIR/rules/table-store.yml" <<'YML'
id: table-store
language: python
severity: warning
message: table store
rule: {pattern: "self.$T[$K] = $V"}
YML
cat > "$DIR/rules/raise-runtime.yml" <<'YML'
id: raise-runtime
language: python
severity: warning
message: raise RuntimeError
rule: {pattern: "raise RuntimeError($$$)"}
YML
cat > "$DIR/rules/iterate-self.yml" <<'YML'
id: iterate-self
language: python
severity: warning
message: iteration over self attribute
rule:
  kind: for_statement
  has: {field: right, pattern: "self.$A"}
YML

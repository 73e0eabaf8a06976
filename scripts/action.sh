#!/usr/bin/env bash
# The logic of action.yml, kept in a script so that it runs (and is tested)
# outside GitHub. Environment:
#   SGLINT                  the sglint binary (default: sglint on PATH)
#   INPUT_PATHS             paths to check, separated by whitespace (default .)
#   INPUT_ARGS              extra sglint arguments, separated by whitespace
#                           (no quoting; do not pass --format)
#   INPUT_SARIF_FILE        when set, also write SARIF 2.1.0 there
#   INPUT_FAIL_ON_FINDINGS  "true" (default) or "false"
#   GITHUB_STEP_SUMMARY     Markdown job summary, appended to when set
#   GITHUB_OUTPUT           step outputs (findings, exit-code), when set
# Exit status: sglint's, except that findings exit 0 when
# INPUT_FAIL_ON_FINDINGS is false. Errors (2) always fail.
set -uo pipefail

sglint=${SGLINT:-sglint}
fail_on_findings=${INPUT_FAIL_ON_FINDINGS:-true}
case "$fail_on_findings" in
  true|false) ;;
  *) echo "::error title=sglint::fail-on-findings must be true or false, not '$fail_on_findings'"; exit 2 ;;
esac

# Split the inputs on whitespace without expanding globs.
set -f
# shellcheck disable=SC2206  # splitting is the point; globbing is off
paths=(${INPUT_PATHS:-})
# shellcheck disable=SC2206
args=(${INPUT_ARGS:-})
set +f
[ ${#paths[@]} -gt 0 ] || paths=(.)

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# GitHub shows only 10 error and 10 warning annotations per step; the github
# format also prints every finding as a plain line, which the log and the
# summary below carry in full.
"$sglint" --format github "${args[@]}" "${paths[@]}" >"$out"
code=$?
cat "$out"

if [ -n "${INPUT_SARIF_FILE:-}" ]; then
  mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
  "$sglint" --format sarif --exit-zero "${args[@]}" "${paths[@]}" >"$INPUT_SARIF_FILE" 2>/dev/null
  sarif_code=$?
  if [ "$sarif_code" -ne 0 ]; then
    echo "::error title=sglint::writing SARIF to $INPUT_SARIF_FILE failed (exit $sarif_code)"
    code=2
  fi
fi

# md sets REPLY to text escaped for a Markdown table cell. (Replacements
# are quoted: bash 5.2 otherwise reads & in them as the matched text.)
md() {
  local s=$1
  s=${s//&/"&amp;"}
  s=${s//</"&lt;"}
  s=${s//>/"&gt;"}
  s=${s//|/"\\|"}
  REPLY=$s
}

# location sets REPLY to path:line:col, linked to the file at this commit on
# GitHub when the run's repository is known and the path is a plain
# relative one. No subshells: the summary may have thousands of rows.
location() {
  local path=${1#./} line=$2 col=$3
  md "$path:$line:$col"
  if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_SHA:-}" ] &&
     [[ $path =~ ^[A-Za-z0-9._][A-Za-z0-9._/-]*$ ]] && [[ $path != ../* ]]; then
    REPLY="[$REPLY]($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/$path#L$line)"
  fi
}

# Byte semantics from here on: the summary budget counts bytes.
LC_ALL=C
finding='^(.+):([0-9]+):([0-9]+): (SGL[0-9]{3}) (.*)$'
findings=$(grep -v '^::' "$out" | grep -Ec '^.+:[0-9]+:[0-9]+: SGL[0-9]{3} ')

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### sglint"
    echo
    if [ "$code" -ge 2 ]; then
      echo "sglint failed (exit $code); see the step log."
      echo
    fi
    if [ "$findings" -eq 0 ]; then
      [ "$code" -ge 2 ] || echo "All checks passed."
    else
      echo "$findings finding(s)."
      echo
      echo "| Rule | Location | Message |"
      echo "| --- | --- | --- |"
      # A step summary holds at most 1 MiB; stop well before and say so.
      budget=900000 written=0 shown=0
      while IFS= read -r line; do
        [[ $line != ::* && $line =~ $finding ]] || continue
        rule=${BASH_REMATCH[4]} message=${BASH_REMATCH[5]}
        location "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
        where=$REPLY
        md "$message"
        row="| $rule | $where | $REPLY |"
        written=$((written + ${#row} + 1))
        [ "$written" -le "$budget" ] || break
        echo "$row"
        shown=$((shown + 1))
      done <"$out"
      if [ "$shown" -lt "$findings" ]; then
        echo
        echo "$((findings - shown)) more finding(s) are not shown here (summary size limit); the step log lists all of them."
      fi
    fi
  } >>"$GITHUB_STEP_SUMMARY"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "findings=$findings"
    echo "exit-code=$code"
  } >>"$GITHUB_OUTPUT"
fi

if [ "$code" -eq 1 ] && [ "$fail_on_findings" = false ]; then
  exit 0
fi
exit "$code"

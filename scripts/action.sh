#!/usr/bin/env bash
# The logic of action.yml, kept in a script so that it runs (and is tested)
# outside GitHub. Environment:
#   SGLINT                  the sglint binary (default: sglint on PATH)
#   INPUT_PATHS             paths to check, as shell words (default .)
#   INPUT_ARGS              extra sglint arguments, as shell words (not
#                           --format: the action chooses the formats)
#   INPUT_SARIF_FILE        when set, also write SARIF 2.1.0 there
#   INPUT_FAIL_ON_FINDINGS  "true" (default) or "false"
#   GITHUB_STEP_SUMMARY     Markdown job summary, appended to when set
#   GITHUB_OUTPUT           step outputs (findings, exit-code, sarif-file), when set
# Exit status: sglint's, except that findings exit 0 when
# INPUT_FAIL_ON_FINDINGS is false. Errors (2) always fail.
set -uo pipefail

sglint=${SGLINT:-sglint}
fail_on_findings=${INPUT_FAIL_ON_FINDINGS:-true}
case "$fail_on_findings" in
  true|false) ;;
  *) echo "::error title=sglint::fail-on-findings must be true or false, not '$fail_on_findings'"; exit 2 ;;
esac

# words sets WORDS to the shell words of $1 as a shell splits them, without
# expanding anything: blanks and newlines separate; '...' quotes; "..."
# quotes with \ escaping \, ", $ and `; \ outside quotes escapes the next
# character. A quote left open is an error (status 1). No eval: the inputs
# never run as code.
words() {
  local s=$1 word="" inword=0 quote="" c next i=0
  WORDS=()
  while [ "$i" -lt "${#s}" ]; do
    c=${s:i:1}
    if [ -n "$quote" ]; then
      if [ "$c" = "$quote" ]; then
        quote=""
      elif [ "$quote" = '"' ] && [ "$c" = '\' ] && [[ ${s:i+1:1} == [\\\"\$\`] ]]; then
        i=$((i + 1))
        word+=${s:i:1}
      else
        word+=$c
      fi
    else
      case $c in
        ' ' | $'\t' | $'\n' | $'\r')
          if [ "$inword" = 1 ]; then
            WORDS+=("$word")
            word="" inword=0
          fi
          ;;
        "'" | '"') quote=$c inword=1 ;;
        '\')
          i=$((i + 1))
          next=${s:i:1}
          if [ "$next" != $'\n' ]; then # backslash-newline joins lines
            word+=$next inword=1
          fi
          ;;
        *) word+=$c inword=1 ;;
      esac
    fi
    i=$((i + 1))
  done
  [ -z "$quote" ] || return 1
  [ "$inword" = 0 ] || WORDS+=("$word")
}

if ! words "${INPUT_PATHS:-}"; then
  echo "::error title=sglint::paths has an unclosed quote: ${INPUT_PATHS:-}"
  exit 2
fi
paths=("${WORDS[@]}")
if ! words "${INPUT_ARGS:-}"; then
  echo "::error title=sglint::args has an unclosed quote: ${INPUT_ARGS:-}"
  exit 2
fi
args=("${WORDS[@]}")
[ ${#paths[@]} -gt 0 ] || paths=(.)
for a in "${args[@]}"; do
  case $a in
    --format | --format=* | -format | -format=*)
      echo "::error title=sglint::args must not set --format: the action runs sglint with --format github for the annotations and the summary, and --format sarif for sarif-file"
      exit 2
      ;;
  esac
done

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# GitHub shows only 10 error and 10 warning annotations per step; the github
# format also prints every finding as a plain line, which the log and the
# summary below carry in full.
"$sglint" --format github "${args[@]}" "${paths[@]}" >"$out" 2>"$err"
code=$?
cat "$out"
cat "$err" >&2

# An error (exit 2: a missing baseline file, a bad configuration, a file
# that cannot be read) becomes an annotation, at its file:line:col when the
# message starts with one, so that it shows on the run's page and not only
# in the log.
errors=()
if [ "$code" -ge 2 ]; then
  location_re='^sglint: ([^:]+):([0-9]+):([0-9]+): (.*)$'
  while IFS= read -r line; do
    case $line in
      "sglint: warning: "*) continue ;;
      "sglint: "*) ;;
      *) continue ;;
    esac
    errors+=("${line#sglint: }")
    if [[ $line =~ $location_re ]]; then
      echo "::error file=${BASH_REMATCH[1]},line=${BASH_REMATCH[2]},col=${BASH_REMATCH[3]},title=sglint::${BASH_REMATCH[4]}"
    else
      echo "::error title=sglint::${line#sglint: }"
    fi
  done <"$err"
  if [ ${#errors[@]} -eq 0 ]; then
    echo "::error title=sglint::sglint failed (exit $code); see the step log"
  fi
fi

# SARIF for code scanning, only from a run that checked everything asked
# for: an empty file (a config error prints nothing) fails the upload, and a
# partial one would close the alerts of the files that were not checked.
sarif_written=""
if [ -n "${INPUT_SARIF_FILE:-}" ]; then
  rm -f "$INPUT_SARIF_FILE" # never a stale file from an earlier run
  if [ "$code" -ge 2 ]; then
    echo "::error title=sglint::no SARIF written to $INPUT_SARIF_FILE: sglint failed (exit $code); fix the errors above and run again"
  else
    mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
    sarif_tmp=$(mktemp)
    "$sglint" --format sarif --exit-zero "${args[@]}" "${paths[@]}" >"$sarif_tmp" 2>/dev/null
    sarif_code=$?
    if [ "$sarif_code" -eq 0 ] && [ -s "$sarif_tmp" ]; then
      mv "$sarif_tmp" "$INPUT_SARIF_FILE"
      chmod 644 "$INPUT_SARIF_FILE" # mktemp made it 0600: the upload step may run as another user
      sarif_written=$INPUT_SARIF_FILE
    else
      rm -f "$sarif_tmp"
      echo "::error title=sglint::writing SARIF to $INPUT_SARIF_FILE failed (exit $sarif_code)"
      code=2
    fi
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
# sglint's own closing line: findings by severity and rule, what was not
# checked, what the baseline hid.
verdict=$(grep -E '^(Found [0-9]+ problems? in|No problems found|Nothing was checked|All checks passed)' "$out" | tail -n 1)

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### sglint"
    echo
    if [ "$code" -ge 2 ]; then
      echo "sglint failed (exit $code); see the step log."
      echo
      if [ ${#errors[@]} -gt 0 ]; then
        for e in "${errors[@]}"; do
          md "$e"
          echo "- $REPLY"
        done
        echo
        hint="Fix these and run again."
        case "${errors[*]}" in
          *baseline*) hint="$hint A baseline file that does not exist yet is made with \`sglint --write-baseline FILE\` on the default branch and committed." ;;
        esac
        echo "$hint"
        echo
      fi
    fi
    if [ -n "$verdict" ]; then
      md "$verdict"
      echo "$REPLY"
    elif [ "$findings" -gt 0 ]; then
      echo "$findings finding(s)."
    fi
    if [ "$findings" -gt 0 ]; then
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
    echo "sarif-file=$sarif_written"
  } >>"$GITHUB_OUTPUT"
fi

if [ "$code" -eq 1 ] && [ "$fail_on_findings" = false ]; then
  exit 0
fi
exit "$code"

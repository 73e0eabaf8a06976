#!/usr/bin/env bash
# Side-by-side benchmark: sglint vs ast-grep on the machine's Python stdlib
# (without its test folders), runs interleaved so both see the same machine
# state. Prints each tool's median wall time, the ratio, and sglint's peak RSS.
#
#   bench/run.sh [RUNS]        (default 7 runs each)
#
# Needs: go, gcc, python3, npm (ast-grep is installed locally under
# bench/.tools the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
JOBS=${JOBS:-2}
WORK=${BENCH_DIR:-/tmp/sglint-bench}
mkdir -p "$WORK"

echo "== build"
go build -o "$WORK/sglint" ./cmd/sglint

echo "== corpus"
STDLIB=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
CORPUS="$WORK/corpus"
if [ ! -f "$CORPUS/.complete" ]; then
  rm -rf "$CORPUS"; mkdir -p "$CORPUS"
  (cd "$STDLIB" && find . -name '*.py' -not -path '*/test/*' -not -path '*/tests/*' \
      -not -path '*/idle_test/*' -not -path '*/site-packages/*' -print0 |
    xargs -0 cp --parents -t "$CORPUS")
  touch "$CORPUS/.complete"
fi
echo "$(find "$CORPUS" -name '*.py' | wc -l) files, $(cat $(find "$CORPUS" -name '*.py') | wc -l) lines, $(du -sh --apparent-size "$CORPUS" | cut -f1)"

echo "== ast-grep"
TOOLS=bench/.tools
if [ ! -x "$TOOLS/node_modules/.bin/ast-grep" ]; then
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --silent --no-audit --no-fund @ast-grep/cli@0.39 >/dev/null 2>&1 ||
     npm install --silent --no-audit --no-fund @ast-grep/cli >/dev/null)
fi
SG="$PWD/$TOOLS/node_modules/.bin/ast-grep"
"$SG" --version
bench/astgrep-rules.sh "$WORK/sg"

run_sglint() { "$WORK/sglint" --no-cache -j "$JOBS" --format json "$CORPUS" >/dev/null 2>&1 || true; }
run_sg() { (cd "$WORK/sg" && "$SG" scan -j "$JOBS" --json=compact "$CORPUS" >/dev/null 2>&1) || true; }

now() { date +%s.%N; }
declare -a T_SGL T_SG
run_sglint; run_sg # warm the page cache
for i in $(seq "$RUNS"); do
  a=$(now); run_sglint; b=$(now); T_SGL+=("$(echo "$b - $a" | bc)")
  a=$(now); run_sg; b=$(now); T_SG+=("$(echo "$b - $a" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
M_SGL=$(median "${T_SGL[@]}"); M_SG=$(median "${T_SG[@]}")
RSS=$( { /usr/bin/time -f '%M' "$WORK/sglint" --no-cache -j "$JOBS" --format json "$CORPUS" >/dev/null 2>/dev/null; } 2>&1 | tail -1 || true)
printf 'sglint   -j %s: median %.3fs over %d runs\n' "$JOBS" "$M_SGL" "$RUNS"
printf 'ast-grep -j %s: median %.3fs over %d runs\n' "$JOBS" "$M_SG" "$RUNS"
printf 'ratio sglint/ast-grep: %.2f\n' "$(echo "$M_SGL / $M_SG" | bc -l)"
printf 'sglint peak RSS: %s KiB\n' "$RSS"

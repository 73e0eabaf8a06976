#!/usr/bin/env bash
# Benchmarks sglint side by side with ast-grep, runs interleaved so that
# both see the same machine state, and prints medians (wall and CPU time,
# peak RSS) checked against targets.
#
# The machine's Python standard library (without its test folders) holds no
# KV code, so there sglint runs with --all-files: the whole engine on every
# file (issue 8's targets):
#
#   cold    sglint --no-cache --all-files, -j 2   vs  ast-grep scan -j 2   (ratio <= 1.0)
#   warm    the same with its cache, nothing changed                        (<= 0.1 x cold)
#   edit    the same, one file changed before each run                      (reported)
#   memory  peak RSS of the cold run                                        (<= 150 MiB)
#   floor   sglint --select SGL000: parsing alone, no project model         (reported)
#   linear  cold run on the corpus twice over                               (<= 2.1 x cold)
#
# Each TREE given (an sglang checkout's python/ directory, as a user runs
# `sglint ./python`) is measured as users run it, demand-driven (issue 15's
# targets, as issue 33 set them: loose enough for a shared machine's noise):
#
#   cold    sglint --no-cache -j 2   vs  ast-grep scan -j 2                  (ratio <= 0.2)
#   memory  peak RSS of the cold run                                        (<= 120 MiB)
#   warm    with its cache, nothing changed                                 (<= 0.25 x cold)
#   edit    with its cache, one disaggregation file changed before each run (<= 0.5 x cold):
#           a comment line appended
#   edit2   the same with a call added inside a method of that file         (reported)
#           (a logging call inserted before the first one at method depth),
#           which changes the file's summary, so the files to analyse are
#           chosen again from the pre-scans
#   start   sglint --version: what every run pays before its work           (reported)
#
# Usage: bench/run.sh [RUNS] [TREE...]   (default 7 runs of each; JOBS=2 by default)
#
# Needs go, gcc, python3 and npm: ast-grep is installed under bench/.tools
# (gitignored) the first time. Times are taken by bench/measure (wall time
# to the microsecond, CPU, peak RSS): GNU time rounds wall time to 10 ms,
# as long as a whole warm run. Work files go to $BENCH_DIR (default
# /tmp/sglint-bench). Exits 1 if a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
shift || true
TREES=("$@")
JOBS=${JOBS:-2}
WORK=${BENCH_DIR:-/tmp/sglint-bench}
mkdir -p "$WORK"
echo "== build"
go build -o "$WORK/sglint" ./cmd/sglint
go build -tags bench -o "$WORK/measure" ./bench/measure
"$WORK/sglint" version

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
# The corpus twice over, for the linear-growth check: two copies side by
# side are two packages of one project.
DOUBLE="$WORK/corpus2"
if [ ! -f "$DOUBLE/.complete" ]; then
  rm -rf "$DOUBLE"; mkdir -p "$DOUBLE"
  cp -r "$CORPUS" "$DOUBLE/a"; cp -r "$CORPUS" "$DOUBLE/b"
  touch "$DOUBLE/.complete"
fi
# A copy for the edit runs, so the cold corpus never changes.
EDIT="$WORK/corpus-edit"
rm -rf "$EDIT"; cp -r "$CORPUS" "$EDIT"
echo "python $(python3 --version 2>&1 | cut -d' ' -f2): $(find "$CORPUS" -name '*.py' | wc -l) files," \
  "$(find "$CORPUS" -name '*.py' -print0 | xargs -0 cat | wc -l) lines," \
  "$(find "$CORPUS" -name '*.py' -print0 | xargs -0 cat | wc -c) bytes"

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

# measure NAME CMD...: runs CMD once, appends "wall cpu rss_kib" to $WORK/t.NAME.
# sglint exits 1 and ast-grep 1 when they find something; 2 or more is a failure.
measure() {
  local name=$1; shift
  local code=0
  "$WORK/measure" "$WORK/t.$name" "$@" >/dev/null 2>"$WORK/t.$name.err" || code=$?
  if [ "$code" -gt 1 ]; then
    echo "bench: $name failed (exit $code):" >&2; cat "$WORK/t.$name.err" >&2; exit 2
  fi
}
cold() { measure cold "$WORK/sglint" --no-cache --all-files -j "$JOBS" --format json "$CORPUS"; }
sg() { (cd "$WORK/sg" && measure sg "$SG" scan -j "$JOBS" --json=compact "$CORPUS"); }
warm() { SGLINT_CACHE_DIR="$WORK/cache" measure warm "$WORK/sglint" --all-files -j "$JOBS" --format json "$CORPUS"; }
# One file changed before each run: a new function at the end of a module
# that many others import, which changes its summary and so the project.
EDITED="$EDIT/os.py"
edit() {
  echo "def _sglint_bench_$1(): pass" >>"$EDITED"
  SGLINT_CACHE_DIR="$WORK/cache-edit" measure edit "$WORK/sglint" --all-files -j "$JOBS" --format json "$EDIT"
}
# The floor of sglint's design: read, parse and flatten every file, with
# the file-local rule alone (no project model, no project rules).
floor() { measure floor "$WORK/sglint" --no-cache --select SGL000 -j "$JOBS" --format json "$CORPUS"; }
double() { measure double "$WORK/sglint" --no-cache --all-files -j "$JOBS" --format json "$DOUBLE"; }

rm -f "$WORK"/t.*
rm -rf "$WORK/cache" "$WORK/cache-edit"
echo "== warming up (page cache, sglint's cache)"
cold; sg; floor; warm; edit 0; double
rm -f "$WORK"/t.*
echo "== $RUNS interleaved runs of each"
for i in $(seq "$RUNS"); do
  cold; sg; floor; warm; edit "$i"; double
done

# col FILE N: the median of column N (1 wall, 2 cpu, 3 rss).
col() { awk -v c="$2" '{print $c}' "$WORK/t.$1" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# spread A B prints the range of the per-run ratios of column 1 of files A
# and B (their runs are interleaved, so run i of each met the same phase of
# the machine): the verdicts compare the medians' ratio, this shows how far
# one run of the script may land from it.
spread() { paste "$WORK/t.$1" "$WORK/t.$2" | awk '{r = $1 / $4; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r} END {printf "%.3f-%.3f", lo, hi}'; }
# ratio A B prints A/B to four decimals: verdicts compare that, not a
# rounding that could turn 0.0505 into a met 0.05.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}'; }
# verdict VALUE OP LIMIT prints ok or MISSED; it runs in command
# substitutions (subshells), so a miss is recorded in a file.
rm -f "$WORK/missed"
verdict() {
  if awk -v v="$1" -v l="$3" "BEGIN {exit !(v $2 l)}"; then echo "ok"; else touch "$WORK/missed"; echo "MISSED"; fi
}

C=$(col cold 1); CC=$(col cold 2); S=$(col sg 1); SC=$(col sg 2)
W=$(col warm 1); E=$(col edit 1); D=$(col double 1); F=$(col floor 1)
RSS=$(awk "BEGIN {printf \"%.1f\", $(col cold 3) / 1024}")
R=$(ratio "$C" "$S"); RW=$(ratio "$W" "$C"); RE=$(ratio "$E" "$C"); RD=$(ratio "$D" "$C")
echo "== results: medians of $RUNS runs, -j $JOBS, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'cold    sglint --no-cache     %6.3f s wall  %6.3f s cpu\n' "$C" "$CC"
printf 'cold    ast-grep scan         %6.3f s wall  %6.3f s cpu\n' "$S" "$SC"
printf 'ratio   sglint / ast-grep     %6s  (target <= 1.0: %s; cpu ratio %s)\n' "$R" "$(verdict "$R" '<=' 1.0)" "$(ratio "$CC" "$SC")"
printf 'floor   sglint --select SGL000 %5.3f s wall = %s x ast-grep  (parse and flatten only)\n' "$F" "$(ratio "$F" "$S")"
printf 'warm    nothing changed       %7.4f s = %s x cold  (target <= 0.1: %s)\n' "$W" "$RW" "$(verdict "$RW" '<=' 0.1)"
printf 'edit    one file changed      %7.4f s = %s x cold\n' "$E" "$RE"
printf 'memory  cold peak RSS         %6s MiB  (target <= 150: %s)\n' "$RSS" "$(verdict "$RSS" '<=' 150)"
printf 'linear  corpus x2             %6.3f s = %s x cold  (target <= 2.1: %s)\n' "$D" "$RD" "$(verdict "$RD" '<=' 2.1)"

# An sglang tree, as users run it. The tree is copied (the edit runs change
# a file, and the cache must not land in it).
for TREE in "${TREES[@]}"; do
  name=$(basename "$(dirname "$(realpath "$TREE")")")
  T="$WORK/tree-$name"
  rm -rf "$T"; mkdir -p "$T"; cp -r "$TREE" "$T/python"
  TE="$WORK/tree-$name-edit"
  rm -rf "$TE"; mkdir -p "$TE"; cp -r "$TREE" "$TE/python"
  EF=""
  for cand in mori mooncake nixl; do
    f="$TE/python/sglang/srt/disaggregation/$cand/conn.py"
    if [ -f "$f" ]; then EF=$f; break; fi
  done
  [ -n "$EF" ] || { echo "bench: $TREE has no disaggregation backend to edit" >&2; exit 2; }
  echo "== tree $name: $(find "$T/python" -name '*.py' | wc -l) files, $(find "$T/python" -name '*.py' -print0 | xargs -0 cat | wc -c) bytes; edits ${EF#$TE/}"
  tcold() { measure tcold "$WORK/sglint" --no-cache -j "$JOBS" --format json "$T/python"; }
  tsg() { (cd "$WORK/sg" && measure tsg "$SG" scan -j "$JOBS" --json=compact "$T/python"); }
  twarm() { SGLINT_CACHE_DIR="$WORK/tcache-$name" measure twarm "$WORK/sglint" -j "$JOBS" --format json "$T/python"; }
  tedit() {
    echo "# sglint bench edit $1" >>"$EF"
    SGLINT_CACHE_DIR="$WORK/tcache-$name-edit" measure tedit "$WORK/sglint" -j "$JOBS" --format json "$TE/python"
  }
  # The first logging call at method depth: a new one goes before it.
  LN=$(grep -n '^        logger\.' "$EF" | head -1 | cut -d: -f1)
  [ -n "$LN" ] || { echo "bench: $EF has no logging call at method depth" >&2; exit 2; }
  tedit2() {
    sed -i "${LN}i\\        logger.debug(\"sglint bench edit $1\")" "$EF"
    SGLINT_CACHE_DIR="$WORK/tcache-$name-edit" measure tedit2 "$WORK/sglint" -j "$JOBS" --format json "$TE/python"
  }
  rm -f "$WORK"/t.t*; rm -rf "$WORK/tcache-$name" "$WORK/tcache-$name-edit"
  # sglint trusts file stamps only for files older than its cache records
  # by two seconds (git's racy-clean rule): let the fresh copies age.
  sleep 3
  tstart() { measure tstart "$WORK/sglint" --version; }
  tcold; tsg; twarm; tedit 0; tedit2 0; tstart
  rm -f "$WORK"/t.t*
  for i in $(seq "$RUNS"); do
    tcold; tsg; twarm; tedit "$i"; tedit2 "$i"; tstart
  done
  C=$(col tcold 1); CC=$(col tcold 2); S=$(col tsg 1); SC=$(col tsg 2)
  W=$(col twarm 1); E=$(col tedit 1); E2=$(col tedit2 1)
  RSS=$(awk "BEGIN {printf \"%.1f\", $(col tcold 3) / 1024}")
  R=$(ratio "$C" "$S"); RW=$(ratio "$W" "$C"); RE=$(ratio "$E" "$C")
  echo "== results for $name: medians of $RUNS runs, -j $JOBS, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'cold    sglint --no-cache     %6.3f s wall  %6.3f s cpu\n' "$C" "$CC"
  printf 'cold    ast-grep scan         %6.3f s wall  %6.3f s cpu\n' "$S" "$SC"
  printf 'ratio   sglint / ast-grep     %6s  (target <= 0.2: %s; cpu ratio %s)\n' "$R" "$(verdict "$R" '<=' 0.2)" "$(ratio "$CC" "$SC")"
  printf 'memory  cold peak RSS         %6s MiB  (target <= 120: %s)\n' "$RSS" "$(verdict "$RSS" '<=' 120)"
  printf 'warm    nothing changed       %7.4f s = %s x cold  (target <= 0.25: %s; per run %s)\n' "$W" "$RW" "$(verdict "$RW" '<=' 0.25)" "$(spread twarm tcold)"
  printf 'edit    one file changed      %7.4f s = %s x cold  (target <= 0.5: %s; per run %s)\n' "$E" "$RE" "$(verdict "$RE" '<=' 0.5)" "$(spread tedit tcold)"
  printf 'edit2   a call added          %7.4f s = %s x cold  (reported; per run %s)\n' "$E2" "$(ratio "$E2" "$C")" "$(spread tedit2 tcold)"
  ST=$(col tstart 1)
  printf 'start   sglint --version      %7.4f s = %s x cold  (reported: what every run above pays before its work, the harness fork and wait included)\n' "$ST" "$(ratio "$ST" "$C")"
done
[ ! -e "$WORK/missed" ]

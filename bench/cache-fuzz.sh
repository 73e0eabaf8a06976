#!/usr/bin/env bash
# bench/cache-fuzz.sh SGLINT TREE [EDITS [SEED]]: checks the cache against a
# whole sglang tree. It copies TREE (a checkout's python/), runs SGLINT on
# it once, then makes EDITS random edits to the KV transfer code (a comment
# at the end or on a line, a logging call inserted, a guard flipped, a
# method added, a send method that reads a table without checking, which
# most often adds a finding), and after each compares a run with the cache (replay, plan,
# reparsing all on) with a run without it: output and exit status must be
# the same. Every few edits it waits out the racy window, so both the
# trusted-stamp and the read-again paths are taken. Exit 1 on a difference.
#
#   bench/cache-fuzz.sh ./sglint /path/to/lucifer1004/python 30 7
set -euo pipefail
BIN=$(realpath "$1"); SRC=$2; N=${3:-30}; RANDOM=${4:-1}
command -v python3 >/dev/null || { echo "cache-fuzz: python3 is needed (to tell a syntax error apart)" >&2; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
cp -r "$SRC" "$W/python"; cd "$W"; export SGLINT_CACHE_DIR="$W/cache"
sleep 2.2 # the copy's stamps are trusted only two seconds on
"$BIN" -j 2 python >/dev/null 2>&1 || true
D=python/sglang/srt/disaggregation
mapfile -t files < <(ls $D/*/conn.py $D/*.py 2>/dev/null)
[ "${#files[@]}" -gt 0 ] || { echo "cache-fuzz: no $D in $SRC" >&2; exit 2; }
parses() { python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$1" 2>/dev/null; }
bad=0
for i in $(seq "$N"); do
  f=${files[$((RANDOM % ${#files[@]}))]}
  n=$(wc -l <"$f"); k=$(((RANDOM % n) + 1))
  case $((RANDOM % 6)) in
  0) echo "# fuzz $i" >>"$f"; what="comment at the end" ;;
  1) line=$(grep -n '^ \+[a-z_]\+ = \|^ \+return\|^ \+logger\.' "$f" | sed -n "$(((RANDOM % 20) + 1))p" | cut -d: -f1 || true)
     line=${line:-$k}; ind=$(sed -n "${line}p" "$f" | sed 's/[^ ].*//')
     sed -i "${line}i\\${ind}logger.debug('fuzz $i')" "$f"; what="a call before line $line" ;;
  2) sed -i "${k}s/\$/  # fuzz $i/" "$f"; parses "$f" || sed -i "${k}s/  # fuzz $i\$//" "$f"; what="a comment on line $k" ;;
  3) line=$(grep -n '^        if not self\.\|^        if .* not in self\.' "$f" | sed -n "$(((RANDOM % 5) + 1))p" | cut -d: -f1 || true)
     if [ -n "$line" ]; then sed -i "${line}s/if not self\./if self./; ${line}s/ not in self\./ in self./" "$f"; what="a guard flipped at line $line"
     else echo "# fuzz $i" >>"$f"; what="a comment (no guard to flip)"; fi ;;
  4) line=$(grep -n '^    def ' "$f" | sed -n "$(((RANDOM % 10) + 1))p" | cut -d: -f1 || true)
     if [ -n "$line" ]; then sed -i "${line}i\\    def _fuzz_$i(self):\\n        return self.__dict__\\n" "$f"; what="a method added at line $line"
     else echo "# fuzz $i" >>"$f"; what="a comment (no method)"; fi ;;
  5) table=$(grep -o '^        self\.[a-z_]* = {}' "$f" | head -1 | sed 's/^ *self\.//; s/ = {}//' || true)
     line=$(grep -n '^    def ' "$f" | tail -1 | cut -d: -f1 || true)
     if [ -n "$table" ] && [ -n "$line" ]; then
       sed -i "${line}i\    def send_fuzz_$i(self, key):\n        return self.${table}[key]\n" "$f"; what="an unchecked read of self.$table added at line $line"
     else echo "# fuzz $i" >>"$f"; what="a comment (no table)"; fi ;;
  esac
  parses "$f" || what="$what (now a syntax error)"
  c1=0; "$BIN" -j 2 python >o1 2>e1 || c1=$?
  c2=0; "$BIN" -j 2 --no-cache python >o2 2>e2 || c2=$?
  if ! cmp -s o1 o2 || [ "$c1" != "$c2" ]; then
    echo "DIFF after edit $i, ${f#python/}: $what (exit $c1 cached, $c2 without)"; diff o1 o2 | head -5 || true; bad=1
  fi
  if [ $((RANDOM % 3)) = 0 ]; then sleep 2.1; fi
done
echo "cache-fuzz: $N edits of ${SRC}, $([ $bad = 0 ] && echo "cached runs equal runs without the cache" || echo "DIFFERENCES")"
exit $bad

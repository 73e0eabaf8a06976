#!/usr/bin/env bash
# Peak memory and time of `sglint FILE` on generated inputs of 21 MB (issue
# 31, item 7): a table (one huge list literal) and generated functions.
# Budget: peak RSS under 10x the file and under 1 GiB.
# Usage: bench/huge.sh   (builds sglint; needs python3 and GNU time or bash's)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sglint" ./cmd/sglint
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/table.py", "w") as f:
    f.write("TABLE = [\n")
    n = 0
    while f.tell() < 21 << 20:
        f.write("    (%d, 'name%d', %d.5, [%d, %d, {'k': %d}]),\n" % (n, n, n, n, n + 1, n))
        n += 1
    f.write("]\n")
with open(d + "/functions.py", "w") as f:
    n = 0
    while f.tell() < 21 << 20:
        f.write("def f%d(x, y=%d):\n    if x > %d:\n        return (x, y)\n    return g(x - 1, [y, %d])\n\n" % (n, n, n, n))
        n += 1
PY
for f in table functions; do
  size=$(stat -c %s "$tmp/$f.py")
  out=$( { /usr/bin/time -f '%e %M' "$tmp/sglint" --no-cache "$tmp/$f.py" >/dev/null; } 2>&1 | tail -1)
  read -r secs kb <<<"$out"
  echo "$f.py: $((size >> 20)) MiB, ${secs} s, peak $((kb >> 10)) MiB ($(awk -v k="$kb" -v s="$size" 'BEGIN { printf "%.1f", k * 1024 / s }')x the file)"
done

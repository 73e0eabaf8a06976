#!/usr/bin/env bash
# build-wheels.sh OUT_DIR: builds sglint for the platforms this machine can
# build (linux x86_64 natively; linux aarch64 when Debian's cross compiler
# aarch64-linux-gnu-gcc is installed) and packs each binary into a wheel
# (scripts/wheel.py). The version is SGLINT_VERSION, else the tag at HEAD,
# else a development version. The wheels' manylinux tag is this machine's
# glibc: the binaries link against it (cgo), so they need at least it.
set -euo pipefail
out=${1:?usage: build-wheels.sh OUT_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
version=${SGLINT_VERSION:-$(git -C "$here" describe --tags --exact-match 2>/dev/null || echo devel)}
glibc=$(ldd --version 2>/dev/null | head -n1 | grep -oE '[0-9]+\.[0-9]+$' | tr . _)
[ -n "$glibc" ] || { echo "build-wheels.sh: cannot tell this machine's glibc version" >&2; exit 2; }
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

build() { # GOARCH CC WHEEL_ARCH
  CGO_ENABLED=1 GOOS=linux GOARCH=$1 CC=$2 go -C "$here" build -trimpath \
    -ldflags "-s -w -X github.com/sglint/sglint/internal/cli.Version=$version" -o "$bin/sglint-$1" ./cmd/sglint
  python3 "$here/scripts/wheel.py" --binary "$bin/sglint-$1" --version "$version" \
    --platform "manylinux_${glibc}_$3" --out "$out"
}

case $(uname -m) in
  x86_64) build amd64 gcc x86_64 ;;
  aarch64) build arm64 gcc aarch64 ;;
  *) echo "build-wheels.sh: no native build for $(uname -m)" >&2 ;;
esac
if [ "$(uname -m)" = x86_64 ] && command -v aarch64-linux-gnu-gcc >/dev/null; then
  build arm64 aarch64-linux-gnu-gcc aarch64
fi

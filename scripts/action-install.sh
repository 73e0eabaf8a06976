#!/usr/bin/env bash
# The action's install step: put the release binary of the action's own ref
# at $RUNNER_TEMP/sglint when that ref is a version tag with a release,
# after checking it against the release's SHA256SUMS. Otherwise (a branch,
# a commit, a tag without a release yet) say so in GITHUB_OUTPUT
# (installed=false) and the next steps build from source.
#
# The ref is the last component of GITHUB_ACTION_PATH: a runner unpacks an
# action into _actions/OWNER/REPO/REF, whereas github.action_ref is not set
# reliably in a composite action's steps.
#
# Environment: GITHUB_ACTION_PATH, GITHUB_OUTPUT, RUNNER_TEMP, RUNNER_OS,
# RUNNER_ARCH; SGLINT_RELEASES (default
# https://github.com/sglint/sglint/releases/download) for tests.
set -euo pipefail

releases=${SGLINT_RELEASES:-https://github.com/sglint/sglint/releases/download}
ref=$(basename "$GITHUB_ACTION_PATH")
out() { echo "$1" >>"$GITHUB_OUTPUT"; }

if [[ ! $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  echo "sglint: the action's ref $ref is not a version tag: building from source"
  out installed=false
  exit 0
fi

case "$RUNNER_OS" in
Linux) os=linux exe= ;;
macOS) os=darwin exe= ;;
Windows) os=windows exe=.exe ;;
*) echo "sglint: no release binary for $RUNNER_OS: building from source"; out installed=false; exit 0 ;;
esac
case "$RUNNER_ARCH" in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) echo "sglint: no release binary for $RUNNER_ARCH: building from source"; out installed=false; exit 0 ;;
esac
name="sglint-$ref-$os-$arch$exe"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch() { curl --fail --silent --show-error --location --retry 3 --output "$2" "$1"; }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }
if ! fetch "$releases/$ref/SHA256SUMS" "$tmp/SHA256SUMS" 2>"$tmp/err"; then
  echo "sglint: no release $ref yet ($(head -c 200 "$tmp/err")): building from source"
  out installed=false
  exit 0
fi
want=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$tmp/SHA256SUMS")
if [ -z "$want" ]; then
  echo "sglint: release $ref has no $name: building from source"
  out installed=false
  exit 0
fi
fetch "$releases/$ref/$name" "$tmp/$name"
got=$(sha256 "$tmp/$name")
if [ "$got" != "$want" ]; then
  # Never run a binary that is not the one released.
  echo "::error title=sglint::the downloaded $name does not match the release's SHA256SUMS ($got, want $want)"
  exit 1
fi
install -m 0755 "$tmp/$name" "$RUNNER_TEMP/sglint$exe"
echo "sglint: installed the $ref release binary ($name, sha256 $got)"
out installed=true

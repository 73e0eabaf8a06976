#!/usr/bin/env python3
"""Pack an sglint binary into a platform wheel (py3-none-<platform>).

The wheel holds the binary as a script (sglint-<version>.data/scripts/sglint),
so that `pip install`, `uv tool install` and `pipx install` put `sglint` on
the PATH; it has no Python code and no dependencies. Standard library only.
The archive is reproducible: fixed timestamps, entries in a fixed order.

    python3 scripts/wheel.py --binary BIN --version 1.2.3 \
        --platform manylinux_2_36_x86_64 --out DIR
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

EPOCH = (1980, 1, 1, 0, 0, 0)


def pep440(version):
    """A release tag (v1.2.3, 1.2.3rc1) as a PEP 440 version; anything else
    (a development build) as 0.0.0.dev0."""
    v = version[1:] if version.startswith("v") else version
    if re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", v):
        return v
    return "0.0.0.dev0"


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(binary, version, platform, out):
    version = pep440(version)
    tag = f"py3-none-{platform}"
    dist = f"sglint-{version}"
    with open(binary, "rb") as f:
        exe = f.read()
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: sglint\n"
        f"Version: {version}\n"
        "Summary: Static checks for sglang's KV-cache transfer code (prefill/decode disaggregation)\n"
        "Home-page: https://github.com/sglint/sglint\n"
        "Requires-Python: >=3.7\n"
    ).encode()
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: sglint scripts/wheel.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag}\n"
    ).encode()
    script = "sglint.exe" if platform.startswith("win") else "sglint"
    files = [
        (f"{dist}.data/scripts/{script}", exe, 0o755),
        (f"{dist}.dist-info/METADATA", metadata, 0o644),
        (f"{dist}.dist-info/WHEEL", wheel, 0o644),
    ]
    record_name = f"{dist}.dist-info/RECORD"
    record = "\n".join([record_line(n, d) for n, d, _ in files] + [f"{record_name},,"]) + "\n"
    files.append((record_name, record.encode(), 0o644))
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{dist}-{tag}.whl")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--platform", required=True, help="a wheel platform tag, e.g. manylinux_2_36_x86_64")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    print(build(a.binary, a.version, a.platform, a.out))


if __name__ == "__main__":
    sys.exit(main())

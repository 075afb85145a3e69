"""Short names in the app's build: every identifier the board interns
costs RAM for as long as it runs, so the deployed .mpy files spell the
app's own names short and share them between modules.

Why: MicroPython interns every name an .mpy file carries when the module
loads and never lets one go, in pools that double in size (20, 40, ... 640
entries on the Pico and the 32-bit port: six pools hold 1,260 names, and
the 1,261st allocates a seventh pool of 1,280 entries, about 10 KB, at
once). An evening of all four games brings every module's names in turn.
Renaming in the build keeps the sources readable; the board sees `a0`
where the source says `start_round`, and one `a0` serves every module
that has no other `a0`.

The renaming is one consistent substitution of whole identifier tokens
across the app (firmware/ and shared_rules/), as an alpha-renaming: a name
means the same thing before and after wherever it is written. It touches
only names that nothing can reach by spelling:
- never an attribute (`x.name` anywhere in the app or its libraries, or
  a name a class body binds: methods, fields, anything a library or the
  runtime looks up);
- never a word inside a string literal (getattr by name, messages that
  name a function, journal fields), docstrings aside;
- never a keyword at a call (`f(name=...)`: a library's parameter);
- never a module or package name, nor a name `from package import` loads
  as a submodule, nor a name imported from anything but the app (`from
  binascii import crc32` keeps its spelling, and so does every `crc32`);
- never a word in the strings of the PC side, the tests or the benches
  (code they send to a board's REPL, a module they name), nor of the pin
  maps, the web page or the PC modules it runs beside the app;
- never a keyword, a builtin or a dunder, and never 1 or 2 characters long.
A name keeps its leading underscore or its lack of one, so `_X = const(1)`
is still folded away by mpy-cross and a public constant is still exported.
Tokens are replaced in place, so line numbers (tracebacks) are unchanged.

`plan()` decides, `rename()` applies; `for_app()` gives the plan for the
installed app, computed once per process."""

import ast
import builtins
import io
import keyword
import re
import tokenize
from pathlib import Path

from moontable.mpy import source_name

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SKIP = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
# Names MicroPython provides beyond CPython's builtins, or that code uses
# without a binding of its own.
_RUNTIME = {"const", "micropython", "self", "cls", "machine", "framebuf", "utime", "uos", "ustruct"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Module:
    """What one source says about its names."""

    def __init__(self, text):
        self.text = text
        self.names = set()  # identifiers written bare (not after a dot)
        self.attrs = set()  # identifiers written after a dot
        self.words = set()  # words inside string literals (docstrings aside)
        self.keywords = set()  # names used as a call's keyword
        self.paths = set()  # components of imported module paths
        self.imported = []  # (module path, name) of `from path import name`
        self.members = set()  # names a class body binds: attributes, reached by spelling
        self.tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        self._scan()
        self._classes()

    def _classes(self):
        for node in ast.walk(ast.parse(self.text)):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.ClassDef)):
                        self.members.add(item.name)
                    elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                        for target in (item.targets if isinstance(item, ast.Assign) else [item.target]):
                            for n in ast.walk(target):
                                if isinstance(n, ast.Name):
                                    self.members.add(n.id)

    def _scan(self):
        prev = None
        parens = []  # per open bracket: is it a def's parameter list?
        stmt = []  # the significant tokens of the logical line so far
        toks = [t for t in self.tokens if t.type not in _SKIP]
        for i, t in enumerate(toks):
            if t.type == tokenize.NEWLINE:
                self._imports(stmt)
                stmt = []
                prev = t
                continue
            stmt.append(t)
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if t.type == tokenize.NAME:
                if prev is not None and prev.type == tokenize.OP and prev.string == ".":
                    self.attrs.add(t.string)
                else:
                    self.names.add(t.string)
                    if (nxt is not None and nxt.string == "=" and parens and not parens[-1]):
                        self.keywords.add(t.string)
            elif t.type == tokenize.STRING:
                lone = len(stmt) == 1 and nxt is not None and nxt.type == tokenize.NEWLINE
                if not lone:
                    self.words.update(_WORD.findall(t.string))
            elif t.type == tokenize.OP:
                if t.string in "([{":
                    is_def = (t.string == "(" and len(stmt) >= 3 and stmt[-3].string == "def")
                    parens.append(is_def)
                elif t.string in ")]}" and parens:
                    parens.pop()
            prev = t

    def _imports(self, stmt):
        if not stmt or stmt[0].string not in ("import", "from"):
            return
        if stmt[0].string == "import":
            for t in stmt[1:]:
                if t.type == tokenize.NAME and t.string != "as":
                    self.paths.add(t.string)
            return
        path = []
        k = 1
        while k < len(stmt) and stmt[k].string != "import":
            if stmt[k].type == tokenize.NAME:
                path.append(stmt[k].string)
            k += 1
        self.paths.update(path)
        for t in stmt[k + 1:]:
            if t.type == tokenize.NAME and t.string != "as":
                self.imported.append((".".join(path), t.string))


def _short_names(private):
    """Candidate short names, in order: a0 a1 ... z9 aa ab ... (with a
    leading underscore for a private name)."""
    lead = "_" if private else ""
    for c in _LETTERS:
        for d in "0123456789":
            yield lead + c + d
    for c in _LETTERS:
        for d in _LETTERS:
            yield lead + c + d


def plan(app, libs=(), outside=""):
    """{old name: new name} for the whole app. `app`: {dotted module name:
    source text} of the modules renamed; `libs`: source texts of the other
    modules deployed beside them (read, never renamed); `outside`: text
    that drives the board from outside and may name what is on it."""
    mods = {m: Module(t) for m, t in app.items()}
    lib_mods = [Module(t) for t in libs]
    blocked = set(_WORD.findall(outside))
    blocked.update(keyword.kwlist, dir(builtins), _RUNTIME)
    for m in list(mods.values()) + lib_mods:
        blocked |= m.attrs | m.words | m.keywords | m.paths | m.members
    for m in lib_mods:
        blocked |= m.names
    for name in mods:
        blocked.update(name.split("."))
    for m in mods.values():
        for path, name in m.imported:
            if path not in mods or (path + "." + name) in mods:
                blocked.add(name)  # a library's name, or a submodule
    scope = {}
    for mod, m in mods.items():
        for n in m.names:
            if n in blocked or len(n) <= 2 or (n.startswith("__") and n.endswith("__")):
                continue
            scope.setdefault(n, set()).add(mod)
    taken = {mod: set(m.names) | m.attrs for mod, m in mods.items()}
    out = {}
    # The names that reach the most modules first: they are the hardest
    # to fit, and every module they reach gives its short name away.
    for n in sorted(scope, key=lambda n: (-len(scope[n]), n)):
        where = scope[n]
        for s in _short_names(n.startswith("_")):
            if s in blocked or any(s in taken[mod] for mod in where):
                continue
            out[n] = s
            for mod in where:
                taken[mod].add(s)
            break
    return out


def rename(text, mapping):
    """`text` with every bare identifier in `mapping` replaced, in place
    (same lines, so tracebacks point where the source does)."""
    lines = text.splitlines(keepends=True)
    edits = []
    prev = None
    for t in tokenize.generate_tokens(io.StringIO(text).readline):
        if t.type in _SKIP or t.type == tokenize.NEWLINE:
            if t.type == tokenize.NEWLINE:
                prev = t
            continue
        if t.type == tokenize.NAME and t.string in mapping and not (
                prev is not None and prev.type == tokenize.OP and prev.string == "."):
            edits.append((t.start, t.end, mapping[t.string]))
        prev = t
    for (row, c0), (_, c1), new in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:c0] + new + line[c1:]
    return "".join(lines)


def _string_words(text):
    """The words inside a Python file's string literals."""
    out = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type == tokenize.STRING:
                out.append(t.string)
    except (tokenize.TokenError, SyntaxError):
        return text  # not plain Python: every word counts
    return "\n".join(out)


def _outside_text(root):
    """What may name the board's code from outside. Python on the PC (this
    package, and in a checkout the tests and benches) runs the sources, not
    the build, so only its strings reach the board (code sent to a REPL,
    a module named to load); the modules the web page runs beside the app
    (appbuild.PAGE_MODULES), the page itself and the pin maps count whole."""
    from moontable.appbuild import PAGE_MODULES

    parts = []
    here = Path(__file__).resolve().parent
    for p in sorted(here.rglob("*.py")):
        text = p.read_text(encoding="utf-8", errors="replace")
        beside = p.relative_to(here).as_posix() in PAGE_MODULES  # runs on the page, beside the app
        parts.append(text if beside else _string_words(text))
    if root is not None:
        for sub in ("tests", "bench"):
            d = root / sub
            if d.is_dir():
                for p in sorted(d.rglob("*.py")):
                    parts.append(_string_words(p.read_text(encoding="utf-8", errors="replace")))
        for sub, pattern in (("hardware", "*.json"), ("web/page", "*"), ("web", "*.mjs"), ("web", "*.html")):
            d = root / sub
            if d.is_dir():
                for p in sorted(d.rglob(pattern)):
                    if p.is_file() and "node_modules" not in p.parts:
                        parts.append(p.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


_cache = {}


def for_app(files):
    """The plan for the app whose deployed files are `files`, a list of
    (source path, path on the board) pairs (appbuild.deploy_files):
    firmware/ and shared_rules/ modules are renamed, the driver packages
    are read. Computed once per process while the sources stay as they
    are (their sizes and times)."""
    from moontable import places

    sources = [(Path(src), rel) for src, rel in files if Path(src).suffix == ".py"]
    key = tuple((str(src), st.st_mtime_ns, st.st_size) for src, st in ((src, src.stat()) for src, _ in sources))
    if key not in _cache:
        app, libs = {}, []
        fw = places.firmware_dir().resolve()
        rules = places.shared_rules_dir().resolve()
        for src, rel in sources:
            text = src.read_text(encoding="utf-8")
            if _inside(src, fw) or _inside(src, rules):
                app[source_name(rel)] = text
            else:
                libs.append(text)
        root = fw.parent if (fw.parent / "pyproject.toml").exists() else None
        _cache.clear()
        _cache[key] = (plan(app, libs, _outside_text(root)), set(app))
    return _cache[key]


def _inside(path, folder):
    try:
        path.resolve().relative_to(folder)
        return True
    except ValueError:
        return False


def app_source(src, rel, files):
    """The text to compile for `src` deployed at `rel`: renamed by the
    app's plan when it is one of the app's modules, else as it is."""
    mapping, app = for_app(files)
    text = Path(src).read_text(encoding="utf-8")
    return rename(text, mapping) if source_name(rel) in app else text

"""The docs name only code that exists: every backticked `module.name`
(`store/journal.Journal.append`, `loader.drop`, `host/db.Database.open`)
in README.md and docs/ must resolve to a module of ours that defines the
first name, and to a definition of each name after it somewhere in our
code (a method may live in a base class: `Database.commit_game` is
Store's). A module that is not ours (`json.dumps`, `machine.Pin`) is left
alone, and so are file names (`app.mpy`), globs and calls with arguments."""

import ast
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("firmware", "shared_rules", "host", "tests", "bench", "web", "hardware")
# where a module path in the docs may start: the flash root is firmware/,
# the `moontable` package is host/
BASES = ("", "firmware", "host")
FILE_ENDINGS = {"py", "mpy", "md", "json", "jsonl", "csv", "toml", "txt", "mjs", "js", "html", "png", "svg", "uf2",
                "img", "sh", "j2", "db", "sqlite", "tmp", "file1", "css", "zip", "log", "whl", "gz", "lock"}
TOKEN = re.compile(r"`([A-Za-z_][\w/]*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")


def docs():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


@lru_cache(maxsize=None)
def defined_names(path):
    """Names a Python file defines: at its top level, in its classes
    (methods, class attributes) and as self.NAME = ... in its methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top, inner = set(), set()
    for node in tree.body:
        top.update(_bound(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                inner.update(_bound(item))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                inner.add(node.attr)
    return top, inner


def _bound(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {t.id for t in targets if isinstance(t, ast.Name)}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.If, ast.Try)):
        out = set()
        for child in ast.iter_child_nodes(node):
            out |= _bound(child)
        return out
    return set()


@lru_cache(maxsize=None)
def everything():
    """Every name defined anywhere in our code (for names after the first)."""
    names = set()
    for d in CODE:
        for p in (ROOT / d).rglob("*.py"):
            if "node_modules" in p.parts:
                continue
            top, inner = defined_names(p)
            names |= top | inner
            names.add(p.stem)
    return names


def module_files(dotted_or_path):
    """Our files a doc's module reference may mean: a path from the
    checkout (`shared_rules/log`, `tests/sim/simtools`) or from the flash
    root or the package (`store/journal`, `host/db`), a dotted package path
    (`shared_rules.log`), or one name: a module at the flash root
    (`loader`) or of the `moontable` package (`deploy`). Other single
    names (`games.identity`, a table's column) are not ours to judge."""
    rel = dotted_or_path.replace(".", "/")
    found = []
    for base in BASES if "/" in rel else BASES[1:]:
        for cand in (ROOT / base / (rel + ".py"), ROOT / base / rel / "__init__.py"):
            if cand.is_file():
                found.append(cand)
    return found


def check(token):
    """None when `token` resolves (or is not ours to judge), else why not."""
    parts = token.split(".")
    if parts[-1] in FILE_ENDINGS:
        return None
    # the longest prefix that names a module of ours; the rest are names in it
    for cut in range(len(parts), 0, -1):
        files = module_files(".".join(parts[:cut]))
        if files and cut == len(parts):
            return None  # a module itself: `shared_rules.moonstar.solver`
        if files:
            first, rest = parts[cut], parts[cut + 1:]
            if not any(first in defined_names(f)[0] for f in files):
                return "%s defines no %s" % (", ".join(str(f.relative_to(ROOT)) for f in files), first)
            missing = [n for n in rest if n not in everything()]
            return "no %s is defined anywhere" % ", ".join(missing) if missing else None
    return None  # not a module of ours: json.dumps, machine.Pin, ...


def test_every_code_name_in_the_docs_exists():
    wrong, seen = [], 0
    for doc in docs():
        for token in TOKEN.findall(doc.read_text(encoding="utf-8")):
            seen += 1
            why = check(token)
            if why:
                wrong.append("%s: `%s`: %s" % (doc.relative_to(ROOT), token, why))
    assert seen > 100, seen  # the docs do name code: the pattern still finds it
    assert not wrong, "the docs name code that does not exist:\n" + "\n".join(wrong)


def test_a_name_that_is_gone_is_caught():
    assert check("host/db.Database.add_game") == "no add_game is defined anywhere"
    assert check("host/db.NoSuchThing") is not None
    assert check("store/journal.Journal.append") is None
    assert check("shared_rules.log.Replay") is None
    assert check("json.dumps") is None and check("app.mpy") is None

"""The layout's contract (docs/architecture.md): imports in firmware/ and
shared_rules/ point inward, with no circle. Every import counts, at the top
of a module or inside a function (MicroPython code imports late to save
heap, and a late import is still a dependency). A part importing a name
from its own package's facade (`from shared_rules.moons import seat` in
moons/tricks.py) is an edge to the facade, which imports its parts: a
circle."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules():
    """dotted name -> path, firmware/ at the board's root, shared_rules/ as itself."""
    out = {}
    for base, prefix in (("firmware", ""), ("shared_rules", "shared_rules")):
        for p in (ROOT / base).rglob("*.py"):
            if "__pycache__" in p.parts:
                continue
            parts = list(p.relative_to(ROOT / base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(([prefix] if prefix else []) + parts)
            if name:
                out[name] = p
    return out


def edges(mods):
    graph = {m: set() for m in mods}
    for m, path in mods.items():
        is_pkg = path.name == "__init__.py"
        pkg = m if is_pkg else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:
                    sub = base + "." + a.name
                    targets.append(sub if sub in mods else base)
            for t in targets:
                if t in mods and t != m:
                    graph[m].add(t)
    return graph


def circles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles_in_firmware_or_the_rules_core():
    found = circles(edges(modules()))
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_checker_finds_a_circle_through_a_facade(tmp_path):
    graph = {"pkg": {"pkg.part"}, "pkg.part": {"pkg"}, "leaf": set()}
    assert circles(graph) == [["pkg", "pkg.part"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_modules_are_named_by_their_job_not_by_when_they_load():
    when = re.compile(r"(^|_)(rare|boot)$|^(app|g|ms)_")
    bad = [m for m in modules() if when.search(m.rpartition(".")[2])]
    assert not bad, bad


def test_the_rules_core_never_imports_the_firmware():
    mods = modules()
    graph = edges(mods)
    for m, deps in graph.items():
        if m.startswith("shared_rules"):
            assert all(d.startswith("shared_rules") for d in deps), (m, deps)

"""No import circles inside cogs/, render/ and botcore/: every import counts, also one made
inside a function (a lazy import hides a circle, it does not break it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("botcore", "cogs", "render")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The project modules that ``path`` imports, anywhere in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from pkg import sub`` needs the submodule; ``from pkg import name`` the package
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                if sub in known:
                    found.add(sub)
                elif node.module in known:
                    found.add(node.module)
    return found


def import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    files = {module_name(p): p for pkg in packages for p in (REPO / pkg).rglob("*.py")}
    known = set(files)
    return {name: imports_of(path, known) - {name} for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_finder_sees_a_circle_made_by_a_lazy_import(tmp_path: Path) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    lazy = tmp_path / "lazy.py"
    lazy.write_text(
        "from render import tiles\ndef f():\n    from cogs.game.commands import handle_button\n",
        encoding="utf-8",
    )
    known = {"cogs.game.commands", "cogs.game.views", "render", "render.tiles"}
    assert imports_of(lazy, known) == {"cogs.game.commands", "render.tiles"}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    assert circles(import_graph((package,))) == []


def test_no_import_circle_across_the_discord_side() -> None:
    """botcore builds the services and their Discord delivery; cogs reach them through the
    typed bot: no module of one may come back round to itself through the other."""
    assert circles(import_graph(PACKAGES)) == []

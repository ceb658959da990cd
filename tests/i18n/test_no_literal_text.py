"""No user-facing text outside the catalogues (issue 16 item 5).

An AST scan of the Discord layer (``cogs/``), the services' text modules and the command
translator fails on:

- a string literal (or an f-string's text) holding a Chinese character, outside docstrings
  — the only Chinese in the code must come from ``i18n/locales``;
- a literal with words handed to Discord as text: ``content=``, ``description=``, ``label=``,
  ``placeholder=``, ``title=``, ``name=``, ``text=`` of any call (``value=`` of an embed
  field), or the first argument of ``send`` / ``send_message`` / ``edit_message``.

:data:`ALLOWED` lists the few literals that are not text (stored codes, a protocol word).
A command's own English (``locale_str("…")``'s message) is the command tree's declaration:
Discord shows it to English users, and the ``commands`` catalogue translates it by its place
in the tree (:mod:`botcore.translator`), so it is not scanned; its ``zh=`` extras are.
The failure names every file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The code that talks to users (both text helpers' files).
SCANNED = (
    sorted((ROOT / "cogs").rglob("*.py"))
    + sorted((ROOT / "services").glob("*text*.py"))
    + [ROOT / "services" / "stats_picture.py", ROOT / "botcore" / "translator.py"]
)
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
WORDS = re.compile(r"[A-Za-z]{2,}")
UI_KEYWORDS = frozenset({"content", "description", "label", "placeholder", "title", "name", "text"})
#: ``value=`` is text only in an embed's field (a ``Choice``'s value is a code).
FIELD_CALLS = frozenset({"add_field", "insert_field_at", "set_field_at"})
#: Calls whose ``name=`` is not shown to users (an asyncio task's name).
NOT_DISCORD = frozenset({"create_task", "Task", "getLogger"})
SEND_CALLS = frozenset({"send", "send_message", "edit_message", "edit_original_response"})
#: Literals that are not user-facing text, with why.
ALLOWED: dict[str, str] = {
    "1圈": "a stored game length code (db.guilds.LENGTHS)",
    "2圈": "a stored game length code (db.guilds.LENGTHS)",
    "4圈": "a stored game length code (db.guilds.LENGTHS)",
    "pong": "the answer of /mahjong ping, a protocol word",
    "discord.py ": "the library's name in /mahjong about's footer",
}


def _command_english(tree: ast.AST) -> set[int]:
    """ids of ``locale_str``'s first argument (a command's English declaration)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) == "locale_str" and node.args:
            out.add(id(node.args[0]))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring / bare-string-statement nodes (not text shown to anyone)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant | ast.JoinedStr):
            out.add(id(node.value))
            if isinstance(node.value, ast.JoinedStr):
                out.update(id(v) for v in node.value.values)
    return out


def _pieces(node: ast.AST) -> list[str]:
    """The literal text of a string constant or an f-string (its constant parts)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant)]
    return []


def _allowed(text: str) -> bool:
    return text in ALLOWED or not text.strip()


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def problems_in(path: Path) -> list[str]:
    """``file:line: literal`` for every user-facing literal of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = _docstrings(tree) | _command_english(tree)
    rel = path.relative_to(ROOT)
    found: dict[tuple[int, str], str] = {}

    def flag(node: ast.AST, text: str, why: str) -> None:
        found[(getattr(node, "lineno", 0), text)] = (
            f"{rel}:{getattr(node, 'lineno', 0)}: {why}: {text!r}"
        )

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and CJK.search(text) and not _allowed(text):
            flag(node, text, "Chinese text in the code")
        if isinstance(node, ast.Call) and _call_name(node) not in NOT_DISCORD:
            keywords = UI_KEYWORDS | {"value"} if _call_name(node) in FIELD_CALLS else UI_KEYWORDS
            shown = [kw.value for kw in node.keywords if kw.arg in keywords]
            if _call_name(node) in SEND_CALLS and node.args:
                shown.append(node.args[0])
            for value in shown:
                for text in _pieces(value):
                    if WORDS.search(text) and not _allowed(text):
                        flag(value, text, "text handed to Discord")
    return [found[k] for k in sorted(found)]


def test_the_scan_finds_literals() -> None:
    sample = ROOT / "tests" / "i18n" / "_scan_sample.py"
    sample.write_text(
        '"""文档（不算）"""\n'
        "embed = Embed(title='Your hand', description=f'{n} 张')\n"
        "await channel.send('Hello there')\n"
        "label = t('game.join', lang)\n",
        encoding="utf-8",
    )
    try:
        found = problems_in(sample)
    finally:
        sample.unlink()
    assert len(found) == 3, found
    assert any(":2: text handed to Discord: 'Your hand'" in p for p in found)
    assert any(":2: Chinese text in the code: ' 张'" in p for p in found)
    assert any(":3: text handed to Discord: 'Hello there'" in p for p in found)


def test_no_user_facing_literal_outside_the_catalogues() -> None:
    found = [p for path in SCANNED if path.exists() for p in problems_in(path)]
    assert not found, f"{len(found)} user-facing literals not in i18n/locales:\n" + "\n".join(found)

"""The texts of ``/mahjong help`` (帮助): topics and their pages in 简体, 繁體 and English.

The guide's own sentences are the ``help`` message catalogue (:func:`i18n.t`,
``help.overview.start.body`` …) with the page layout (``help.layout.*``); a variant's topic
— its name, blurb and rule pages — is data of the variant in the registry (its help facts,
``engine/variants/<name>/help.py``: 简体, 繁體 and English texts, scoring rows naming their
item by the scoring-item catalogue).

Everything that could go stale is generated: the rule options and their defaults come from
:func:`engine.options.describe_options`, a points table (上饶 ``classic``) from the scorer's
own table; a test checks the scoring rows' names and values against what the engine scores.
The command list is built from the live command tree in :mod:`cogs.help.commands`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import variants
from engine.options import describe_options, make_options
from engine.variants.base import HelpSection, RulePage, ScoringRow, TableRow, Text
from i18n import LOCALES, t


def variant_topics() -> tuple[str, ...]:
    """The variants with help facts, in command-choice order (their topic is their name).
    Read from the registry at each call, so a variant registered after start-up (a plug-in
    of ``MAHJONG_VARIANTS``, a test's toy variant) has its topic."""
    return tuple(v.name for v in variants.all() if v.help is not None)


def topics() -> tuple[str, ...]:
    """Every topic, in menu order. ``commands`` is built at run time (see :mod:`cogs.help.commands`)."""
    return ("overview", *variant_topics(), "notation", "commands")


#: The topics written in the ``help`` catalogue (``help.topic.<topic>.name`` / ``.blurb``);
#: a variant's topic takes its name and blurb from the variant registry (its help facts).
GUIDE_TOPICS: tuple[str, ...] = ("overview", "notation", "commands")


@dataclass(frozen=True)
class HelpPage:
    """One embed page: a title, a description and optional ``(name, value)`` fields."""

    title: str
    body: str
    fields: tuple[tuple[str, str], ...] = ()


def word(key: str, lang: str, **params: object) -> str:
    """One word of the help view itself (``help.word.<key>``: 帮助, 第 1/3 页, 上一页 …)."""
    return t(f"help.word.{key}", lang, **params)


def topic_name(topic: str, lang: str) -> str:
    """The menu name of ``topic``: 入门：怎么开局, 上饶麻将规则 …"""
    if topic in GUIDE_TOPICS:
        return t(f"help.topic.{topic}.name", lang)
    facts = variants.get(topic).help
    assert facts is not None, topic
    return facts.title.pick(lang)


def topic_blurb(topic: str, lang: str) -> str:
    """The one-line menu description of ``topic``."""
    if topic in GUIDE_TOPICS:
        return t(f"help.topic.{topic}.blurb", lang)
    facts = variants.get(topic).help
    assert facts is not None, topic
    return facts.summary.pick(lang)


# ---------------------------------------------------------------------------- options


def options_text(variant: str, lang: str) -> str:
    """Every rule option of ``variant`` with its default and explanation, from the engine."""
    lines = []
    for name, value, info in describe_options(make_options(variant), lang):
        shown = "—" if value is None else str(value).lower()
        lines.append(f"`{name}={shown}` · {info}")
    return t("help.options_head", lang) + "\n" + "\n".join(lines)


# ---------------------------------------------------------------------------- variant pages


def _item_name(item: Text, lang: str) -> str:
    """A scoring item's name on a row: 简体 / 繁體 for Chinese readers, and for English
    readers the Chinese name players say at the table."""
    return item.zh if lang == "en" else item.pick(lang)


def rows_text(rows: tuple[ScoringRow, ...], lang: str) -> str:
    """One line per scoring item: ``**清一色** ×4 · 全是一门花色``."""
    return "\n".join(
        t(
            "help.layout.row",
            lang,
            name=_item_name(row.item, lang),
            value=row.value,
            note=row.note.pick(lang),
        )
        for row in rows
    )


def table_text(table: tuple[TableRow, ...], lang: str) -> str:
    """A points table (上饶 ``classic``), one item a line: ``**平胡**：宝吊 4 · 无宝 4 · 有宝 2 ✗``
    (✗: that cell alone is not a legal win); English readers see the item's English too."""
    lines = []
    for row in table:
        label = f"**{_item_name(row.item, lang)}**"
        if lang == "en":
            label = f"{label} {row.item.en}"
        cells = " · ".join(f"{column.pick(lang)} {points}" for column, points in row.cells)
        if not row.legal:
            cells += " ✗"
        lines.append(t("help.layout.table_row", lang, label=label, cells=cells))
    return "\n".join(lines)


def section_text(section: HelpSection, variant: str, lang: str) -> str:
    """One paragraph of a rule page: its text, then its rows / table / the options."""
    parts = [] if section.text is None else [section.text.pick(lang)]
    if section.table:
        parts.append(table_text(section.table, lang))
    if section.rows:
        parts.append(rows_text(section.rows, lang))
    if section.options:
        parts.append(options_text(variant, lang))
    return "\n".join(parts)


def rule_page(page: RulePage, variant: str, lang: str) -> HelpPage:
    """One page of a variant's rules (its paragraphs a blank line apart)."""
    return HelpPage(
        page.title.pick(lang),
        "\n\n".join(section_text(s, variant, lang) for s in page.sections),
        tuple(
            (
                f.text.pick(lang) if f.text else "",
                section_text(HelpSection(rows=f.rows), variant, lang),
            )
            for f in page.fields
        ),
    )


def variant_pages(variant: str, lang: str) -> list[HelpPage]:
    """The rule pages of ``variant`` from its help facts in the registry; help facts without
    pages (a plug-in's) give one page: the summary and the rule options."""
    facts = variants.get(variant).help
    assert facts is not None, variant
    if not facts.pages:
        body = f"{facts.summary.pick(lang)}\n\n{options_text(variant, lang)}"
        return [HelpPage(facts.title.pick(lang), body)]
    return [rule_page(page, variant, lang) for page in facts.pages]


def scoring_rows() -> dict[str, tuple[ScoringRow, ...]]:
    """Every variant's scoring rows by summary: ``<variant>`` or ``<variant>/<preset>``
    (a variant with several presets has one per preset)."""
    out: dict[str, tuple[ScoringRow, ...]] = {}
    for variant in variant_topics():
        facts = variants.get(variant).help
        assert facts is not None
        for page in facts.pages:
            for section in (*page.sections, *page.fields):
                if section.rows:
                    key = f"{variant}/{section.preset}" if section.preset else variant
                    out[key] = out.get(key, ()) + section.rows
    return out


def scoring_names(key: str) -> set[str]:
    """The engine item names (简体) a summary covers: ``<variant>`` (every preset) or
    ``<variant>/<preset>`` — its rows and its points table."""
    variant, _, preset = key.partition("/")
    facts = variants.get(variant).help
    assert facts is not None, key
    names: set[str] = set()
    for page in facts.pages:
        for section in (*page.sections, *page.fields):
            if preset in ("", section.preset):
                names |= {row.item.zh for row in section.rows}
                names |= {row.item.zh for row in section.table}
    return names


# ---------------------------------------------------------------------------- guide pages

#: The pages of the getting-started topic (``help.overview.<page>.title`` / ``.body``).
OVERVIEW_PAGES: tuple[str, ...] = ("start", "playing", "length", "records")


#: How many example hands the notation pages show (``help.notation.hand.<n>``, each with
#: its note ``help.notation.example.<n>``).
NOTATION_EXAMPLE_COUNT = 5


def notation_examples(lang: str) -> tuple[str, ...]:
    """The example hands of the notation pages in ``lang`` (繁體 tile words for ``zh-TW``);
    a test parses each one with the engine."""
    return tuple(t(f"help.notation.hand.{n}", lang) for n in range(1, NOTATION_EXAMPLE_COUNT + 1))


#: The pages of the notation topic (``help.notation.<page>.title`` / ``.body``); the first
#: ends with the examples, each with its note ``help.notation.example.<n>``.
NOTATION_PAGES: tuple[str, ...] = ("writing", "chinese")


def _page(key: str, lang: str) -> HelpPage:
    """The page ``help.<key>.title`` / ``help.<key>.body``."""
    return HelpPage(t(f"help.{key}.title", lang), t(f"help.{key}.body", lang))


def _notation_pages(lang: str) -> list[HelpPage]:
    examples = "\n".join(
        f"`{hand}` — {t(f'help.notation.example.{n}', lang)}"
        for n, hand in enumerate(notation_examples(lang), 1)
    )
    writing, *others = (_page(f"notation.{name}", lang) for name in NOTATION_PAGES)
    return [HelpPage(writing.title, writing.body + examples), *others]


def static_pages(topic: str, lang: str) -> list[HelpPage]:
    """The pages of every topic but ``commands``, in ``lang`` (``zh``, ``zh-TW`` or ``en``)."""
    lang = lang if lang in LOCALES else "en"
    if topic == "overview":
        return [_page(f"overview.{name}", lang) for name in OVERVIEW_PAGES]
    if topic in variant_topics():
        return variant_pages(topic, lang)
    if topic == "notation":
        return _notation_pages(lang)
    raise KeyError(topic)


def topic_title(topic: str, lang: str) -> str:
    """``帮助 · 上饶麻将规则``."""
    return f"{word('title', lang)} · {topic_name(topic, lang)}"


def variant_label(variant: str, lang: str) -> str:
    """上饶麻将 / 上饒麻將 / Shangrao."""
    return variants.get(variant).title.pick(lang)


def paginate(lines: list[str], limit: int = 3800) -> list[str]:
    """Join ``lines`` into chunks of at most ``limit`` characters (a long line is cut)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not chunks:
        chunks.append(current)
    return chunks

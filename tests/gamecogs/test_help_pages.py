"""``/mahjong help``: every topic renders in both languages within Discord's limits, the
command list matches the registered tree, and the rules pages match the engine."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
from dataclasses import fields
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.app_commands import locale_str

from botcore.client import DEFAULT_EXTENSIONS
from botcore.translator import CatalogueTranslator, command_key
from cogs.group import mahjong
from cogs.help.commands import (
    MENU_ID,
    PAGE_ID,
    SERVER_PAGE,
    Help,
    command_lines,
    refresh_topic_choices,
    render_help,
    server_note,
    topic_choices,
    topic_pages,
)
from cogs.help.text import (
    NOTATION_EXAMPLE_COUNT,
    notation_examples,
    scoring_names,
    scoring_rows,
    static_pages,
    topic_name,
    topics,
)
from engine import variants
from engine.notation import parse_hand
from engine.options import VARIANTS, describe_options, make_options
from engine.scoring import context_from_dict, score
from engine.variants.shangrao.scoring import CLASSIC
from i18n import LOCALES, t

for _module in DEFAULT_EXTENSIONS:  # registers every /mahjong subcommand on the shared group
    importlib.import_module(_module)

LANGS = ("zh", "en")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
async def tree() -> app_commands.CommandTree:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    await tree.set_translator(CatalogueTranslator())
    if tree.get_command("mahjong") is None:
        tree.add_command(mahjong)
    return tree


def page_count(topic: str, lang: str) -> int:
    return len(static_pages(topic, lang)) if topic != "commands" else 1


@pytest.mark.parametrize("lang", (*LANGS, "zh-TW"))
@pytest.mark.parametrize("topic", topics())
async def test_every_page_fits_discord_limits(tree, topic: str, lang: str) -> None:
    pages = await topic_pages(topic, lang, tree)
    assert pages
    for index, page in enumerate(pages):
        # the source text itself fits (so nothing is silently cut)
        assert 0 < len(page.body) <= 4096
        for name, value in page.fields:
            assert len(name) <= 256 and 0 < len(value) <= 1024
        embed, view = await render_help(topic, index, lang, tree)
        assert embed.description == page.body
        assert len(embed.title or "") <= 256
        assert len(embed) <= 6000
        ids = [c.custom_id for c in view.children]
        assert len(ids) == len(set(ids)), ids
        for cid in ids:
            assert len(cid) <= 100
            assert re.fullmatch(PAGE_ID, cid) or re.fullmatch(MENU_ID, cid)
        items = [getattr(c, "item", c) for c in view.children]
        menu = [c for c in items if isinstance(c, discord.ui.Select)]
        assert len(menu) == 1 and len(menu[0].options) == len(topics()) <= 25
        assert [o.value for o in menu[0].options if o.default] == [topic]
        buttons = [c for c in items if isinstance(c, discord.ui.Button)]
        if len(pages) > 1:
            prev, nxt = buttons
            assert prev.disabled == (index == 0) and nxt.disabled == (index == len(pages) - 1)
            if not nxt.disabled:
                assert nxt.custom_id == f"mj:help:{topic}:{index + 1}"
        else:
            assert not buttons


@pytest.mark.parametrize("topic", topics())
async def test_languages_differ_and_chinese_is_chinese(tree, topic: str) -> None:
    zh = await topic_pages(topic, "zh", tree)
    en = await topic_pages(topic, "en", tree)
    assert len(zh) == len(en)
    for a, b in zip(zh, en, strict=True):
        assert a.body != b.body and a.title != b.title
        assert len(CJK.findall(a.body)) > len(CJK.findall(b.body))


@pytest.mark.parametrize("topic", ["overview", "notation", "commands"])
async def test_taiwan_readers_get_the_guide_in_traditional_chinese(tree, topic: str) -> None:
    """zh-TW: the same pages as 简体, converted (繁體 words, none of the 简体 ones)."""
    zh = await topic_pages(topic, "zh", tree)
    tw = await topic_pages(topic, "zh-TW", tree)
    assert len(zh) == len(tw)
    for a, b in zip(zh, tw, strict=True):
        assert a.body != b.body and len(CJK.findall(b.body)) > 0
    text = "\n".join(p.title + p.body for p in tw)
    words = {
        "overview": ("託管", "準備", "解散", "伺服器"),
        "notation": ("暗槓", "萬", "寶"),
        "commands": ("`/麻將 新局", "`/麻將 幫助"),
    }[topic]
    for word in words:
        assert word in text, word
    for simplified in ("托管", "准备", "服务器", "杠", "宝", "麻将"):
        assert simplified not in text, simplified
    embed, view = await render_help(topic, 0, "zh-TW", tree)
    assert embed.title.startswith("幫助 · ") and "頁" in embed.footer.text
    menu = next(getattr(c, "item", c) for c in view.children if "help" in (c.custom_id or ""))
    labels = [o.label for o in menu.options]
    assert "上饒麻將規則" in labels and "入門：怎麼開局" in labels


async def test_topic_choices_have_chinese_names() -> None:
    choices = topic_choices()
    assert [c.value for c in choices] == list(topics())
    translator = CatalogueTranslator()
    for choice in choices:
        ctx = app_commands.TranslationContext(
            app_commands.TranslationContextLocation.choice_name, choice
        )
        zh = await translator.translate(choice._locale_name, discord.Locale.chinese, ctx)
        tw = await translator.translate(choice._locale_name, discord.Locale.taiwan_chinese, ctx)
        assert zh == topic_name(choice.value, "zh") and CJK.search(zh)
        assert tw == topic_name(choice.value, "zh-TW") and CJK.search(tw)


async def test_a_variant_registered_after_import_has_its_help_topic(tree, monkeypatch) -> None:
    """Topics are read from the registry when used: the toy variant (tests/engine/toy_variant,
    registered long after cogs.help.commands was imported) is in the menu, the command's choices
    and has its pages; once it is gone, so is its topic."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "engine"))
    toy = importlib.import_module("toy_variant")
    assert toy.NAME not in topics()
    variants.register(toy.VARIANT, replace=True)
    try:
        assert toy.NAME in topics() and topics()[-2:] == ("notation", "commands")
        refresh_topic_choices()
        offered = [c.value for c in Help.help.get_parameter("topic").choices]
        assert toy.NAME in offered and offered == list(topics())
        for lang in LANGS:
            embed, view = await render_help(toy.NAME, 0, lang, tree)
            assert toy.VARIANT.help.title.pick(lang) in (embed.title or "")
            assert toy.VARIANT.help.summary.pick(lang) in (embed.description or "")
            assert "`" in (embed.description or "")  # its rule options are listed
            items = [getattr(c, "item", c) for c in view.children]
            (menu,) = [c for c in items if isinstance(c, discord.ui.Select)]
            assert [o.value for o in menu.options if o.default] == [toy.NAME]
    finally:
        variants.unregister(toy.NAME)
        refresh_topic_choices()
    assert toy.NAME not in topics()
    assert toy.NAME not in [c.value for c in Help.help.get_parameter("topic").choices]
    embed, _view = await render_help(toy.NAME, 0, "zh", tree)  # an old button: the overview
    assert embed.title == (await render_help("overview", 0, "zh", tree))[0].title


async def test_out_of_range_page_and_unknown_topic_fall_back(tree) -> None:
    last = page_count("shangrao", "en") - 1
    embed, _view = await render_help("shangrao", 99, "en", tree)
    assert f"page {last + 1}/{last + 1}" in embed.footer.text
    embed, _view = await render_help("nonsense", 0, "zh", tree)
    assert "入门" in embed.title


@pytest.mark.parametrize("lang", LANGS)
async def test_server_settings_show_on_the_timeouts_page_only(tree, lang: str) -> None:
    note = server_note(lang, variant="jiujiang", turn=3600, claim=600, hints=False)
    assert "3600" in note and "600" in note
    assert ("九江麻将" if lang == "zh" else "Jiujiang") in note
    embed, _view = await render_help("overview", SERVER_PAGE, lang, tree, note)
    assert embed.description.endswith(note) and len(embed) <= 6000
    assert len(embed.description) <= 4096
    for page in range(len(static_pages("overview", lang))):
        if page != SERVER_PAGE:
            other, _view = await render_help("overview", page, lang, tree, note)
            assert note not in other.description
    shangrao, _view = await render_help("shangrao", SERVER_PAGE, lang, tree, note)
    assert note not in shangrao.description


async def test_commands_page_lists_every_registered_subcommand(tree) -> None:
    en = "\n".join(p.body for p in await topic_pages("commands", "en", tree))
    zh = "\n".join(p.body for p in await topic_pages("commands", "zh", tree))
    leaves = [c for c in mahjong.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(leaves) >= 15  # the game, stats and desk cogs are all there
    for cmd in leaves:
        path = cmd.qualified_name  # e.g. "mahjong season new"
        assert f"`/{path}" in en, path
        assert cmd.description in en, path
        where = app_commands.TranslationContext(
            app_commands.TranslationContextLocation.command_description, cmd
        )
        key = command_key(locale_str(cmd.description), where)
        assert key is not None and t(key, "zh") in zh, path
    assert "`/麻将 新局" in zh and "`/麻将 帮助" in zh
    lines = await command_lines(tree, "en")
    assert len(lines) == len(leaves)
    # required and optional parameters are marked
    assert any(line.startswith("`/mahjong score <hand>") for line in lines)


@pytest.mark.parametrize("variant", VARIANTS)
def test_taiwan_readers_get_the_variant_pages_in_traditional_chinese(variant: str) -> None:
    """zh-TW: every rule page, scoring row and option explanation in 繁體 (issue 16 item 1)."""
    zh = static_pages(variant, "zh")
    tw = static_pages(variant, "zh-TW")
    assert len(zh) == len(tw)
    for a, b in zip(zh, tw, strict=True):
        assert a.body != b.body and CJK.search(b.body)
        assert len(a.fields) == len(b.fields)
    text = "\n".join([p.title + p.body for p in tw] + [n + v for p in tw for n, v in p.fields])
    for word in ("槓", "莊"):
        assert word in text, word
    for simplified in ("杠", "宝", "麻将", "庄", "听", "门", "对", "选项", "默认"):
        assert simplified not in text, simplified
    for _name, _value, info in describe_options(make_options(variant), "zh-TW"):
        assert info and not set(info) & set("杠宝对庄听门许认选项"), info


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_pages_list_every_option_with_its_default(variant: str, lang: str) -> None:
    text = "\n".join(p.body for p in static_pages(variant, lang))
    options = make_options(variant)
    assert len(describe_options(options, lang)) == len(fields(options))
    for name, value, info in describe_options(options, lang):
        shown = "—" if value is None else str(value).lower()
        assert f"`{name}={shown}` · {info}" in text


@pytest.mark.parametrize("lang", LANGS)
def test_shangrao_pages_show_the_classic_table_from_the_engine(lang: str) -> None:
    pages = static_pages("shangrao", lang)
    text = "\n".join([p.body for p in pages] + [v for p in pages for _, v in p.fields])
    for name, (diao, wubao, youbao, legal) in CLASSIC.items():
        line = next(ln for ln in text.splitlines() if ln.startswith(f"**{name}**"))
        assert f" {wubao}" in line and f" {youbao}" in line
        assert ("✗" in line) == (not legal)
        if diao is not None:
            assert f"宝吊 {diao}" in line
    for row in scoring_rows()["shangrao/xingchen"]:
        assert f"**{row.item.zh}** {row.value}" in text


# ---------------------------------------------------------------------------- engine items


def vectors_dir() -> Path:
    env = os.environ.get("MAHJONG_VECTORS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "vectors"


#: Hands of our own (beside the shared vectors) that produce many items.
SAMPLES: tuple[dict, ...] = (
    {"variant": "xinyu", "hand": "11m22m33m44m55m66m77m +7m", "win": "self"},
    {"variant": "xinyu", "hand": "[111z] [222z] [333z] [555z] 66z +6z", "win": "self"},
    {"variant": "xinyu", "hand": "1111m22m33m44m55m66m +6m", "win": "self", "kong_draws": 0},
    {"variant": "xinyu", "hand": "123m456p789s11s [777z] +1s", "win": "self", "kong_draws": 0},
    {"variant": "jiujiang", "hand": "123m456m789m11p [555z] +1p", "win": "discard"},
    {"variant": "jiujiang", "hand": "11m22m33m44m55m66m77m +7m", "win": "self"},
    {"variant": "jiujiang", "hand": "123m456p789s [777z] 55p +5p", "win": "self", "flowers": 2},
    {"variant": "jiujiang", "hand": "123m456p (5555z) 789s 11s +1s", "win": "self"},
    {
        "variant": "shangrao",
        "options": {"scoring": "xingchen"},
        "hand": "11m22m33m44m55m66m77m +7m",
        "bao": "9p",
        "win": "self",
        "flown": 1,
    },
    {
        "variant": "shangrao",
        "options": {"scoring": "classic"},
        "hand": "123m456m789m1p1p1p99p +9p",
        "bao": "1p",
        "win": "self",
        "kong_draws": 1,
        "flown": 2,
    },
)


def load_cases() -> list[dict]:
    cases = [dict(s) for s in SAMPLES]
    folder = vectors_dir()
    assert folder.is_dir(), f"scoring vectors folder missing: {folder} (set MAHJONG_VECTORS_DIR)"
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    assert len(cases) > len(SAMPLES), f"no vectors in {folder}"
    return cases


def summary_key(case: dict) -> str:
    variant = case["variant"]
    if variant == "shangrao":
        return "shangrao/" + (case.get("options") or {}).get("scoring", "classic")
    return variant


def base_name(name: str, key: str) -> str:
    """The row an engine item belongs to: ``平胡 无宝`` → ``平胡``, ``飞宝 ×2`` → ``飞宝``,
    ``中明杠`` → ``明杠``."""
    name = re.sub(r" ×\d+$", "", name)
    if key == "shangrao/classic":
        name = name.split(" ")[0]
    if key == "jiujiang":
        for tail in ("明杠", "暗杠", "暗刻", "碰"):
            if name.endswith(tail) and name != "碰碰胡":
                return tail
    return name


def test_every_item_the_engine_scores_is_in_the_help_summary() -> None:
    seen: dict[str, set[str]] = {}
    values: dict[str, dict[str, set[str]]] = {}
    for case in load_cases():
        ctx = context_from_dict(
            {
                "options": {},
                "bao": None,
                "flown": 0,
                "kong_draws": 0,
                "flowers": 0,
                "flags": [],
                **case,
            }
        )
        result = score(ctx)
        if not result.legal:
            continue
        key = summary_key(case)
        for item in result.items:
            name = base_name(item.name, key)
            seen.setdefault(key, set()).add(name)
            values.setdefault(key, {}).setdefault(name, set()).add(item.value)
    assert set(seen) == {"shangrao/classic", "shangrao/xingchen", "xinyu", "jiujiang"}
    for key, names in seen.items():
        missing = names - scoring_names(key)
        assert not missing, f"{key}: the help does not explain {sorted(missing)}"
    # fixed values written in the summaries agree with what the engine gives
    for key in ("xinyu", "shangrao/xingchen"):
        for row in scoring_rows()[key]:
            name, value = row.item.zh, row.value
            got = {v for v in values[key].get(name, set()) if "未计" not in v}
            if "ⁿ" not in value and got and name not in ("天胡", "地胡", "接宝", "四个宝"):
                assert got == {value}, (key, name, got)
    # and the summaries cover a good part of the items (the samples are not vacuous)
    assert len(seen["xinyu"]) >= 5 and len(seen["jiujiang"]) >= 5


def test_every_summary_row_names_an_item_the_engine_can_give() -> None:
    rows = scoring_rows()
    assert {
        "shangrao/classic",
        "shangrao/xingchen",
        "xinyu",
        "jiujiang/small",
        "jiujiang/big",
    } <= set(rows)
    for key in ("shangrao/xingchen", "xinyu", "jiujiang/small", "jiujiang/big"):
        # the variant's scorer, found through the registry
        scorer = variants.get(key.partition("/")[0]).score
        source = inspect.getsource(importlib.import_module(scorer.__module__))
        for row in rows[key]:
            name = row.item.zh
            # names the engine composes (碰碰胡 + 宝吊无宝, 七星 + 十三浪 + 有宝) by their core
            core = name.removeprefix("碰碰胡") or name
            core = core.removeprefix("七星").removesuffix("有宝")
            assert any(f'"{n}' in source or f'{n}"' in source for n in (name, core)), (key, name)


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("n", range(NOTATION_EXAMPLE_COUNT))
def test_notation_examples_are_finished_hands(n: int, lang: str) -> None:
    parsed = parse_hand(notation_examples(lang)[n], finished=True)
    assert parsed.winning is not None
    assert parsed == parse_hand(notation_examples("zh")[n], finished=True)


@pytest.mark.parametrize("lang", LANGS)
def test_notation_pages_show_every_example_and_chinese_words(lang: str) -> None:
    text = "\n".join(p.body for p in static_pages("notation", lang))
    for hand in notation_examples(lang):
        assert f"`{hand}`" in text
    for w in ("五万", "一饼", "红中", "白板", "[555p]", "(1111z)", "+"):
        assert w in text


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_rules_command_explains_options_in_the_readers_language(variant: str, lang: str) -> None:
    """``/mahjong rules``: each option's explanation in the reader's locale (繁體 for zh-TW)."""
    from cogs.game.views import rules_text

    text = rules_text(variant, {}, lang)
    for name, _value, info in describe_options(make_options(variant), lang):
        assert f"`{name}=" in text and info in text
    if lang == "zh-TW":
        assert "默认" not in text and "預設" in text

"""The catalogues: every key in every locale with the same placeholders, one domain per key,
and the text layer's behaviour (locales, ``zh+en``, missing keys raise)."""

from __future__ import annotations

import re
import string

import pytest

import i18n
from i18n.catalog import LOCALES, domains, messages, read_domain


def _fields(text: str) -> set[str]:
    """The ``str.format`` field names of a text (``{total:+d}`` → ``total``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_locale_has_the_same_domains() -> None:
    assert domains("zh"), "no catalogue found"
    for locale in LOCALES:
        assert domains(locale) == domains("zh"), locale


@pytest.mark.parametrize("domain", domains("zh"))
def test_every_key_is_in_every_locale_with_the_same_placeholders(domain: str) -> None:
    tables = {locale: read_domain(locale, domain) for locale in LOCALES}
    keys = set().union(*tables.values())
    problems = []
    for key in sorted(keys):
        missing = [locale for locale in LOCALES if key not in tables[locale]]
        if missing:
            problems.append(f"{domain}.po: {key!r} missing in {', '.join(missing)}")
            continue
        fields = {locale: _fields(tables[locale][key]) for locale in LOCALES}
        if len({frozenset(f) for f in fields.values()}) > 1:
            problems.append(f"{domain}.po: {key!r} placeholders differ: {fields}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("domain", domains("zh"))
def test_keys_start_with_their_domain(domain: str) -> None:
    wrong = [key for key in read_domain("zh", domain) if not key.startswith(f"{domain}.")]
    assert not wrong, f"{domain}.po keys must start with '{domain}.': {wrong}"


def test_every_locale_loads_without_duplicate_keys() -> None:
    for locale in LOCALES:
        assert messages(locale), locale  # raises ValueError on a key in two domains


def test_zh_tw_is_traditional_for_mahjong_terms() -> None:
    simplified = "杠宝庄听门对气点发报开这张备"  # all have a 繁體 form
    for domain in domains("zh"):
        for key, text in read_domain("zh-TW", domain).items():
            bad = sorted({ch for ch in text if ch in simplified})
            assert not bad, f"zh_TW {domain}.po {key!r} still has simplified {bad}: {text!r}"


def test_t_formats_and_picks_the_locale() -> None:
    assert i18n.t("errors.illegal", "en", detail="x") == "That move is not allowed: x"
    assert i18n.t("errors.illegal", "zh", detail="x") == "这步不合规：x"
    assert i18n.t("errors.illegal", "zh-TW", detail="x") == "這步不合規：x"
    both = i18n.t("errors.not_your_turn", "zh+en")
    assert both == f"{i18n.t('errors.not_your_turn')} · {i18n.t('errors.not_your_turn', 'en')}"


def test_english_counts_take_the_singular_for_one() -> None:
    assert i18n.t("stats.points_total", "en", points=1) == "1 point in all"
    assert i18n.t("stats.points_total", "en", points=12) == "12 points in all"
    assert i18n.t("stats.hands_n", "en", n=1) == "1 hand"
    assert i18n.t("stats.hands_n", "en", n=0) == "0 hands"
    # no English sentence writes a bare count before a plural noun any more
    bare = re.compile(r"\{\w+\} (hands|points|players|tiles)\b")
    # (the picture words are templates that render fills with str.format, outside i18n.t)
    found = [k for k, v in messages("en").items() if bare.search(v)]
    assert [k for k in found if not k.startswith("picture.")] == []


def test_a_missing_key_raises() -> None:
    with pytest.raises(KeyError):
        i18n.t("game.no_such_key", "zh")
    with pytest.raises(KeyError):
        i18n.t("game.lobby_title", "fr", variant="x")


@pytest.mark.parametrize(
    ("discord_locale", "fallback", "expected"),
    [
        ("zh-CN", "en", "zh"),
        ("zh-TW", "zh", "zh-TW"),
        ("en-US", "zh", "en"),
        ("en-GB", "zh", "en"),
        ("fr", "zh", "en"),
        (None, "zh", "zh"),
        ("", "zh-TW", "zh-TW"),
    ],
)
def test_locale_for_maps_discord_locales(
    discord_locale: str | None, fallback: str, expected: str
) -> None:
    assert i18n.locale_for(discord_locale, fallback) == expected


def test_locale_for_takes_a_discord_locale_enum() -> None:
    discord = pytest.importorskip("discord")
    assert i18n.locale_for(discord.Locale.taiwan_chinese, "zh") == "zh-TW"
    assert i18n.locale_for(discord.Locale.chinese, "en") == "zh"
    assert i18n.locale_for(discord.Locale.american_english, "zh") == "en"


def test_engine_texts_are_reached_by_id() -> None:
    assert i18n.t("engine.variant.shangrao", "zh") == "上饶麻将"
    assert i18n.t("engine.variant.shangrao", "zh-TW") == "上饒麻將"
    assert i18n.t("engine.variant.shangrao", "en") == "Shangrao"
    with pytest.raises(KeyError):
        i18n.t("engine.variant.nowhere", "zh")


def test_every_engine_text_has_three_locales() -> None:
    from i18n.engine_texts import engine_text_ids

    ids = engine_text_ids()
    assert "variant.xinyu" in ids
    simplified = "杠宝庄听门对气点发报开这张备"
    for text_id in ids:
        texts = {locale: i18n.t(f"engine.{text_id}", locale) for locale in LOCALES}
        assert all(texts.values()), (text_id, texts)
        bad = sorted({ch for ch in texts["zh-TW"] if ch in simplified})
        assert not bad, f"engine text {text_id!r} zh_TW still has simplified {bad}"


def test_scoring_items_of_a_result_read_traditional_for_zh_tw() -> None:
    from cogs.game.text import score_line_text
    from services.model import ScoreLine

    line = ScoreLine("杠上开花", "Win on a kong replacement", "×2")
    assert score_line_text(line, "zh") == "杠上开花 ×2"
    assert score_line_text(line, "zh-TW") == "槓上開花 ×2"
    assert score_line_text(line, "en") == "Win on a kong replacement (杠上开花) ×2"

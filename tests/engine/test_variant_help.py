"""A variant's ``/mahjong help`` rule pages as data (engine/variants/<name>/help.py): texts in
three locales with stable ids, scoring rows naming catalogue items, the points table from
the scorer's own table."""

from __future__ import annotations

import pytest

from engine import variants
from engine.variants.catalogue import NAMES
from engine.variants.shangrao.scoring import CLASSIC
from i18n import t

BUILTIN = ("shangrao", "xinyu", "jiujiang", "nanchang")


@pytest.mark.parametrize("name", BUILTIN)
def test_rule_pages_are_data_of_the_variant(name: str) -> None:
    facts = variants.get(name).help
    assert facts is not None and len(facts.pages) >= 2
    sections = [s for p in facts.pages for s in (*p.sections, *p.fields)]
    # exactly one paragraph lists the rule options, and some list scoring items
    assert sum(s.options for s in sections) == 1
    rows = [r for s in sections for r in s.rows]
    assert len(rows) >= 10
    for row in rows:
        # a row names its item by the catalogue (one shared Text), never by a copy
        assert row.item is NAMES[row.item.zh], row.item
        assert row.value and row.note.zh and row.note.zh_TW and row.note.en


@pytest.mark.parametrize("name", BUILTIN)
def test_every_help_text_is_reachable_by_id_in_three_locales(name: str) -> None:
    facts = variants.get(name).help
    assert facts is not None
    texts = facts.texts()
    assert len({x.id for x in texts}) >= 10
    by_id: dict[str, object] = {}
    for text in texts:
        assert by_id.setdefault(text.id, text) == text, text.id  # one id, one text
        assert t(f"engine.{text.id}", "zh") == text.zh
        assert t(f"engine.{text.id}", "zh-TW") == text.zh_TW
        assert t(f"engine.{text.id}", "en") == text.en
        assert text.zh_TW != text.zh or not set(text.zh) & set("杠宝对庄听门烂饶将发张")


def test_classic_table_is_the_scorers_table() -> None:
    facts = variants.get("shangrao").help
    assert facts is not None
    table = [r for p in facts.pages for s in p.sections for r in s.table]
    assert [r.item.zh for r in table] == list(CLASSIC)
    for row in table:
        diao, wubao, youbao, legal = CLASSIC[row.item.zh]
        assert [v for _, v in row.cells] == [v for v in (diao, wubao, youbao) if v is not None]
        assert row.legal == legal


def test_option_explanations_have_three_locales() -> None:
    for variant in map(variants.get, BUILTIN):
        for option, info in variant.options_class.INFO.items():
            assert info.zh and info.en and info.zh_TW, (variant.name, option)
            assert info.pick("zh-TW") == info.zh_TW != info.zh, option
            assert not set(info.zh_TW) & set("杠宝对庄听门许认选项"), info.zh_TW

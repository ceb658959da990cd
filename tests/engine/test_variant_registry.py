"""The variant registry and the scoring-item catalogue (engine/variants/)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from test_vectors import vectors_dir

from engine import variants
from engine.options import OptionError, make_options
from engine.scoring import score, score_line
from engine.scoring.bench import contexts, presets
from engine.variants.catalogue import NAMES, split_item_name


def _vector_files() -> list[Path]:
    """The shared vector files, and those of a variant not yet played (``next/``)."""
    where = vectors_dir()
    return sorted(where.glob("*.jsonl")) + sorted(where.glob("next/*.jsonl"))


def test_the_three_built_in_variants_in_choice_order() -> None:
    assert variants.names()[:3] == ("shangrao", "xinyu", "jiujiang")
    assert variants.default().name == "shangrao"
    for v in variants.all():
        assert variants.get(v.name) is v
        assert v.options_class.variant == v.name
        assert v.rules(v.options_class()).variant == v.name


def test_an_unknown_variant_is_an_option_error_naming_the_known_ones() -> None:
    with pytest.raises(OptionError, match="shangrao, xinyu, jiujiang, nanchang"):
        variants.get("wuhan")
    with pytest.raises(OptionError, match="unknown variant 'wuhan'"):
        make_options("wuhan")


def test_register_refuses_a_second_variant_under_a_taken_name() -> None:
    xinyu = variants.get("xinyu")
    other = dataclasses.replace(xinyu, order=99)
    with pytest.raises(ValueError, match="already registered"):
        variants.register(other)
    assert variants.register(xinyu) is xinyu  # the same object again is fine
    assert variants.get("xinyu") is xinyu


def test_table_rules_are_built_once_per_options() -> None:
    v = variants.get("shangrao")
    a = v.rules(make_options("shangrao", {"discard_win": True}))
    assert a is v.rules(make_options("shangrao", {"discard_win": "true"}))
    assert a.discard_win and not v.rules(make_options("shangrao")).discard_win


def _emitted(variant: str) -> set[str]:
    """Every item name the variant's scorer writes on the shared vectors and bench hands."""
    names: set[str] = set()
    for path in _vector_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            if obj.get("variant") == variant:
                names.update(i["name"] for i in score_line(obj).get("items", []))
    for _, options in presets(variant):
        for ctx in contexts(variant, options)[:400]:
            names.update(i.name for i in score(ctx).items)
    return names


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_every_scored_item_is_in_its_variants_catalogue(variant: str) -> None:
    listed = {i.name.zh for i in variants.get(variant).items}
    emitted = _emitted(variant)
    assert len(emitted) >= 8
    missing = {n for n in emitted if not set(split_item_name(n)) <= listed}
    assert not missing, f"{variant} scores items its catalogue lacks: {sorted(missing)}"


def test_shared_items_are_defined_once() -> None:
    by_zh: dict[str, set[int]] = {}
    for v in variants.all():
        for i in v.items:
            assert i.name is NAMES[i.name.zh]
            by_zh.setdefault(i.name.zh, set()).add(id(i.name))
    shared = [zh for zh in ("杠上开花", "清一色", "碰碰胡", "天胡") if zh in by_zh]
    assert len(shared) == 4 and all(len(by_zh[zh]) == 1 for zh in shared)
    assert sum(1 for v in variants.all() if any(i.name.zh == "杠上开花" for i in v.items)) == 3


def test_every_engine_text_has_three_locales_and_a_unique_id() -> None:
    texts = variants.texts()
    ids = [t.id for t in texts]
    assert len(ids) == len(set(ids))
    for t in texts:
        assert t.zh and t.zh_TW and t.en, t
        assert t.pick("zh-TW") == t.zh_TW and t.pick("en") == t.en and t.pick("zh") == t.zh
        # 繁體 mahjong terms: 槓 for 杠, 寶 for 宝, 對 for 对, 莊 for 庄, 聽 for 听
        assert not set(t.zh_TW) & set("杠宝对庄听门烂饶将"), t
    assert variants.get("xinyu").title.zh_TW == "新餘麻將"
    assert NAMES["杠上开花"].zh_TW == "槓上開花"


def test_impossible_hand_refusals_are_engine_texts_with_their_arguments() -> None:
    from engine.scoring import context_from_dict
    from engine.scoring.impossible import REFUSALS, refusal

    ids = {t.id for t in variants.texts()}
    assert {t.id for t in REFUSALS.values()} <= ids
    ctx = context_from_dict({"variant": "xinyu", "hand": "456s11z [345s] [678m] [777m] +1z"})
    why = refusal(ctx)
    assert (
        why
        == "新余麻将不能吃：[345s] 是吃来的顺子 · xinyu has no chi: [345s] is a claimed sequence"
    )
    assert why.key == "engine.refusal.no_chi"  # type: ignore[attr-defined]
    tw = REFUSALS["no_chi"].zh_TW.format(**why.params)  # type: ignore[attr-defined]
    assert tw == "新餘麻將不能吃：[345s] 是吃來的順子"


def test_not_legal_reasons_are_engine_texts_with_the_same_arguments_in_each_locale() -> None:
    from string import Formatter

    from engine.not_legal_texts import NOT_LEGAL

    ids = {t.id for t in variants.texts()}
    assert {t.id for t in NOT_LEGAL.values()} <= ids
    for text in NOT_LEGAL.values():
        fields = [
            {name for _, name, _, _ in Formatter().parse(s) if name}
            for s in (text.zh, text.zh_TW, text.en)
        ]
        assert fields[0] == fields[1] == fields[2], text
    assert NOT_LEGAL["youbao"].zh_TW.format(name=NAMES["七对"].zh_TW) == "七對有寶需寶吊或飛寶"

"""One error root: every refusal derives from :class:`engine.refusal.Refusal` and is said in
the user's language — the engine's reasons (illegal actions, bad options, unreadable hands,
desk input) included, which used to reach Chinese users in English."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest
from discord import app_commands

from cogs.errors import describe_error
from cogs.refusal_text import refusal_text, translated
from cogs.user_error import UserError
from db.guilds import LANGUAGES
from engine.game.machine import IllegalAction
from engine.notation import NotationError, parse_hand
from engine.options import OptionError, make_options
from engine.refusal import Reason, Refusal, Words, reason_of
from i18n import LOCALES, SERVER_LANGUAGES, t
from i18n.catalog import messages
from services import errors
from services.desk import DeskQuery, score_desk
from services.desk_errors import DeskInputError

ROOT = Path(__file__).resolve().parents[2]
#: helpers that build a Reason under a fixed key prefix
PREFIXES = {"_why": {"legal.py": "errors.illegal.", "notation.py": "errors.notation."}}


def _reason_keys() -> list[tuple[str, str]]:
    """``(where, key)`` of every Reason the code builds with a literal key."""
    out = []
    for folder in ("engine", "services", "db", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                first = node.args[0]
                if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                if name == "Reason":
                    out.append((where, first.value))
                elif name == "desk_why":
                    out.append((where, f"errors.desk.{first.value}"))
                elif name == "_why" and path.name in PREFIXES["_why"]:
                    out.append((where, PREFIXES["_why"][path.name] + first.value))
    return out


def test_every_reason_the_code_gives_has_a_text_in_every_locale() -> None:
    keys = _reason_keys()
    assert len(keys) > 60, keys  # the scan finds the engine's and the desk's reasons
    missing = [
        f"{where}: {key} ({locale})"
        for where, key in keys
        if not key.startswith("engine.")
        for locale in LOCALES
        if key not in messages(locale)
    ]
    assert not missing, "\n".join(missing)


def test_every_refusal_kind_shares_the_root() -> None:
    for kind in (
        errors.ServiceError,
        errors.IllegalMove,
        IllegalAction,
        DeskInputError,
        UserError,
    ):
        assert issubclass(kind, Refusal), kind
    assert issubclass(UserError, app_commands.AppCommandError)


def test_an_illegal_move_is_explained_in_the_users_language() -> None:
    refusal = errors.IllegalMove(errors.not_possible("pong", "5m"))
    assert str(refusal) == "pong 5m is not possible now"  # English for the logs, as before
    assert refusal_text(refusal, "zh") == "这步不合规：现在不能碰 5m"
    assert refusal_text(refusal, "zh-TW") == "這步不合規：現在不能碰 5m"
    assert refusal_text(refusal, "en") == "That move is not allowed: Pong 5m is not possible now"


def test_nested_reasons_and_word_lists_are_translated() -> None:
    words = Words(Reason(f"common.action.{k}", k) for k in ("discard", "win"))
    why = Reason(
        "errors.illegal.cannot_now",
        "seat {seat} cannot {action} now; it may: {allowed}",
        seat=1,
        action=Reason("common.action.pong", "pong"),
        allowed=words,
    )
    assert str(why) == "seat 1 cannot pong now; it may: discard, win"
    assert translated(why, "zh") == "座位1现在不能碰；可以：打、胡"
    assert translated(why, "en") == "seat 1 cannot Pong now; it may: Discard, Win"
    unknown = Reason("errors.no_such_reason", "plain English")
    assert translated(unknown, "zh") == "plain English"  # never a bare key


def test_bad_options_and_unreadable_hands_are_translated() -> None:
    with pytest.raises(OptionError) as bad:
        make_options(next(iter(_variant_names())), {"no_such_option": "1"})
    refusal = errors.BadOption(reason_of(bad.value))
    assert "no_such_option" in refusal_text(refusal, "zh")
    assert refusal_text(refusal, "zh").startswith("规则选项无效：")
    assert "没有选项" in refusal_text(refusal, "zh")
    with pytest.raises(NotationError) as unreadable:
        parse_hand("123m 456p 789s 11z [555s] +9z")
    assert translated(unreadable.value.problem, "zh") == "看不懂牌 '9z'"
    assert translated(unreadable.value.problem, "en") == "cannot read tile '9z'"


def test_desk_input_errors_carry_their_reason() -> None:
    with pytest.raises(DeskInputError) as refused:
        score_desk(DeskQuery(hand="123m 456p 789s 11z [555s] +3m", variant="nowhere"))
    error = refused.value
    assert error.field == "variant" and error.bad == "nowhere"
    assert translated(error.problem, "zh") == "没有这个玩法 'nowhere'"
    assert refusal_text(error, "zh-TW") == "variant：沒有這個玩法 'nowhere'"


def _variant_names() -> tuple[str, ...]:
    from engine import variants

    return variants.names()


def _interaction(locale: str) -> SimpleNamespace:
    return SimpleNamespace(locale=locale)


def test_the_handler_translates_refusals_raised_inside_commands() -> None:
    wrapped = app_commands.CommandInvokeError(
        SimpleNamespace(qualified_name="x", name="x"),  # type: ignore[arg-type]
        errors.NotYourTurn(),
    )
    assert describe_error(_interaction("zh-TW"), wrapped) == t("errors.not_your_turn", "zh-TW")
    assert describe_error(_interaction("zh-CN"), wrapped) == "现在不轮到你。"
    assert describe_error(_interaction("en-US"), wrapped) == "It is not your turn."
    assert describe_error(_interaction("zh-TW"), UserError("as typed")) == "as typed"
    keyed = UserError(key="errors.manage_only")
    assert describe_error(_interaction("en-US"), keyed) == t("errors.manage_only", "en")
    assert describe_error(_interaction("en-US"), ValueError("boom")) is None


def test_a_server_may_choose_traditional_chinese() -> None:
    assert "zh-TW" in LANGUAGES
    assert set(LANGUAGES) == set(SERVER_LANGUAGES)

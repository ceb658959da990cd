"""Rule options per variant (RULES §3–§5), as data.

Each variant has a frozen dataclass of its house-rule options with the defaults RULES.md gives.
:func:`make_options` builds one from a JSON-like dict and refuses unknown names and bad values
with a clear message; :func:`describe_options` lists each option with its current value and a
one-line explanation (what ``/mahjong rules`` shows).

>>> o = make_options("shangrao", {"scoring": "xingchen"})
>>> o.scoring, o.discard_win, o.jiebao()
('xingchen', False, 10)
>>> make_options("xinyu", {"draw_dealer": "stay"}).draw_dealer
'stay'
>>> make_options("jiujiang", {"chi": "yes"})
Traceback (most recent call last):
...
engine.options.OptionError: option 'chi' of jiujiang takes true or false, not 'yes'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, ClassVar

VARIANTS = ("shangrao", "xinyu", "jiujiang")
VARIANT_NAMES = {
    "shangrao": ("上饶麻将", "Shangrao"),
    "xinyu": ("新余麻将", "Xinyu"),
    "jiujiang": ("九江麻将", "Jiujiang"),
}


class OptionError(ValueError):
    """An unknown variant or option, or a value the option does not take."""


@dataclass(frozen=True)
class OptionInfo:
    """How one option is shown: its choices and a one-line explanation in both languages."""

    choices: tuple[Any, ...]
    zh: str
    en: str
    int_range: tuple[int, int] | None = None


@dataclass(frozen=True)
class ShangraoOptions:
    """上饶麻将 house rules (RULES §3)."""

    variant: ClassVar[str] = "shangrao"
    scoring: str = "classic"
    discard_win: bool = False
    jiebao_points: int | None = None

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "scoring": OptionInfo(
            ("classic", "xingchen"),
            "计分方式：classic 为百科分数表，xingchen 为星辰麻将番数表",
            "Scoring preset: classic (the encyclopedia points table) or xingchen (the multiplier table)",
        ),
        "discard_win": OptionInfo(
            (False, True),
            "允许点炮胡（默认只能自摸、地胡、抢杠、接宝）",
            "Allow winning on any discard (default: only self-draw, 地胡, robbing a kong, 接宝)",
        ),
        "jiebao_points": OptionInfo(
            (None,),
            "接宝 / 四个宝 的分数（空 = 按计分方式：classic 16，xingchen 10）",
            "Points for 接宝 / 四个宝 (empty = by preset: classic 16, xingchen 10)",
            int_range=(1, 1000),
        ),
    }

    def jiebao(self) -> int:
        """Points of 接宝 / 四个宝 under this preset."""
        if self.jiebao_points is not None:
            return self.jiebao_points
        return 16 if self.scoring == "classic" else 10


@dataclass(frozen=True)
class XinyuOptions:
    """新余麻将 house rules (RULES §4)."""

    variant: ClassVar[str] = "xinyu"
    discard_win: bool = False
    draw_dealer: str = "next"

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "discard_win": OptionInfo(
            (False, True),
            "允许点胡（可一炮多响；默认只能自摸）",
            "Allow winning on discards, several winners at once (default: self-draw only)",
        ),
        "draw_dealer": OptionInfo(
            ("next", "stay"),
            "流局后坐庄：next 下家坐庄，stay 连庄",
            "Dealer after a drawn hand: next (the dealer's 下家) or stay (连庄)",
        ),
    }


@dataclass(frozen=True)
class JiujiangOptions:
    """九江麻将 house rules (RULES §5)."""

    variant: ClassVar[str] = "jiujiang"
    chi: bool = False

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "chi": OptionInfo(
            (False, True),
            "允许吃牌（默认不能吃，只能碰、杠）",
            "Allow chi (default: pong and kong only)",
        ),
    }


RuleOptions = ShangraoOptions | XinyuOptions | JiujiangOptions
OPTION_CLASSES: dict[str, type[RuleOptions]] = {
    "shangrao": ShangraoOptions,
    "xinyu": XinyuOptions,
    "jiujiang": JiujiangOptions,
}


def check_variant(variant: str) -> str:
    """Return ``variant`` if it is one of :data:`VARIANTS`, else raise :class:`OptionError`."""
    if variant not in OPTION_CLASSES:
        raise OptionError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    return variant


def make_options(variant: str, values: dict[str, Any] | None = None) -> RuleOptions:
    """Build a variant's options from a dict of overrides (JSON values or strings)."""
    cls = OPTION_CLASSES[check_variant(variant)]
    values = dict(values or {})
    known = {f.name for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for name, raw in values.items():
        if name not in known:
            raise OptionError(
                f"{variant} has no option {name!r}: its options are {', '.join(sorted(known))}"
            )
        kwargs[name] = _coerce(variant, name, raw, cls.INFO[name])
    return cls(**kwargs)


def _coerce(variant: str, name: str, raw: Any, info: OptionInfo) -> Any:
    choices = info.choices
    if isinstance(raw, str):
        low = raw.strip().lower()
        table = {"true": True, "false": False, "on": True, "off": False, "none": None, "": None}
        if low in table and (table[low] in choices):
            raw = table[low]
        elif low.isdigit():
            raw = int(low)
        else:
            raw = low
    if any(raw == c and type(raw) is type(c) for c in choices):
        return raw
    if info.int_range and type(raw) is int and info.int_range[0] <= raw <= info.int_range[1]:
        return raw
    if choices == (False, True):
        raise OptionError(f"option {name!r} of {variant} takes true or false, not {raw!r}")
    shown = ", ".join("none" if c is None else str(c).lower() for c in choices)
    if info.int_range:
        shown += f", or a whole number {info.int_range[0]}–{info.int_range[1]}"
    raise OptionError(f"option {name!r} of {variant} takes one of {shown}, not {raw!r}")


def options_to_dict(options: RuleOptions) -> dict[str, Any]:
    """The options as a JSON-ready dict (every option, defaults included)."""
    return dataclasses.asdict(options)


def describe_options(options: RuleOptions, lang: str = "zh") -> list[tuple[str, Any, str]]:
    """``(name, current value, one-line explanation)`` for every option of the variant."""
    out = []
    for f in fields(options):
        info = options.INFO[f.name]
        out.append((f.name, getattr(options, f.name), info.zh if lang == "zh" else info.en))
    return out

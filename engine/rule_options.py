"""The base of every variant's house-rule options (RULES §3–§5), and its error.

Low on purpose: the scoring types (:class:`engine.scoring.types.WinContext` holds the
options) and the variants build on it without importing the registry. Building options by
variant name is :func:`engine.options.make_options`, above the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


class OptionError(ValueError):
    """An unknown variant or option, or a value the option does not take."""


@dataclass(frozen=True)
class OptionInfo:
    """How one option is shown: its choices and a one-line explanation in 简体 ``zh``,
    English ``en`` and 繁體 ``zh_TW``."""

    choices: tuple[Any, ...]
    zh: str
    en: str
    int_range: tuple[int, int] | None = None
    zh_TW: str = ""  # noqa: N815 - the locale's own name

    def pick(self, lang: str) -> str:
        """The explanation in ``lang`` (``zh`` / ``zh-TW`` / ``zh_TW`` / ``en``); a plug-in
        option with no 繁體 text shows its 简体 one."""
        if lang == "en":
            return self.en
        if lang in ("zh_TW", "zh-TW"):
            return self.zh_TW or self.zh
        return self.zh


class RuleOptions:
    """Base of every variant's house-rule options (a frozen dataclass per variant).

    ``variant`` names the variant the options belong to; ``INFO`` describes each option.
    """

    variant: ClassVar[str]
    INFO: ClassVar[dict[str, OptionInfo]]
    __dataclass_fields__: ClassVar[dict[str, Any]]

"""One engine-owned text in three locales (简体, 繁體, English), found by a stable id.

The lowest layer of the variant texts: the scoring catalogue, the refusals of impossible
hands and every variant's titles and help build on it; it imports nothing of the project.

>>> t = Text("unit.points", "分", "分", "points")
>>> t.pick("en"), t.pick("zh-TW"), t.pick("fr")
('points', '分', '分')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """One engine-owned text in the three locales: 简体 ``zh``, 繁體 ``zh_TW``, ``en``.

    ``id`` is stable: the bot's text layer (i18n) finds the text by it.
    """

    id: str
    zh: str
    zh_TW: str  # noqa: N815 - the locale's own name
    en: str

    def pick(self, lang: str) -> str:
        """The text in ``lang`` (``zh`` / ``zh_TW`` / ``zh-TW`` / ``en``; else 简体)."""
        if lang == "en":
            return self.en
        if lang in ("zh_TW", "zh-TW"):
            return self.zh_TW
        return self.zh

"""The pictures' words (图上文字) in a reader's language, from the ``picture`` catalogue.

:mod:`render` reads no catalogue (it imports nothing of the project); every caller that
builds a picture model puts ``words=picture_words(lang)`` in it, so a 繁體 reader's table,
hand, result, 摊牌, standings and replay pictures say 莊 / 聽 / 寶 … instead of 庄 / 听 / 宝.
"""

from __future__ import annotations

from functools import cache

from i18n import short, t
from render.words import PictureWords


@cache
def picture_words(lang: str) -> PictureWords:
    """:class:`render.words.PictureWords` for ``lang`` (``zh``, ``zh-TW``, ``en``; a
    ``zh+en`` server's pictures are Chinese, like its short labels)."""
    lang = short(lang)

    def w(key: str) -> str:
        domain = "common" if key.startswith("wind.") else "picture"  # 门风: 东 / 東 / E
        return t(f"{domain}.{key}", lang)

    return PictureWords(
        winds=(w("wind.0"), w("wind.1"), w("wind.2"), w("wind.3")),
        honors=tuple(w("honors").split()),
        dealer=w("dealer"),
        ready=w("ready"),
        auto=w("auto"),
        won=w("won"),
        dealt_in=w("dealt_in"),
        sanbao=w("sanbao"),
        session_winner=w("session_winner"),
        total=w("total"),
        bao=w("bao"),
        claim_wait=w("claim_wait"),
        drawn_hand=w("drawn_hand"),
        winner_line=w("winner_line"),
        points=w("points"),
        hand_number=w("hand_number"),
        wall_left=w("wall_left"),
        turn=w("turn"),
        hand_columns=(w("column.hand"), w("column.total")),
        standings_columns=(
            w("column.total"),
            w("column.wins"),
            w("column.self_draws"),
            w("column.dealt_in"),
            w("column.biggest"),
        ),
    )

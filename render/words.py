"""The words the pictures write (图上文字) in the reader's language.

:mod:`render` imports nothing of the project, so it does not read the message catalogues:
the caller fills a :class:`PictureWords` from ``i18n.t("picture.…", locale)`` (see
``services.picture_words``) and puts it in the picture model's ``words`` field. Without one a
picture speaks 简体中文 (the defaults below are the ``zh`` catalogue's texts).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PictureWords:
    """Labels and short formats of the pictures; ``{n}`` / ``{name}`` are ``str.format``
    fields. Player names, titles and scoring items come in the models themselves."""

    winds: tuple[str, str, str, str] = ("东", "南", "西", "北")  # seat winds (门风), 东 first
    honors: tuple[str, ...] = ("东", "南", "西", "北", "中", "发", "白")  # short honor names
    dealer: str = "庄"  # 庄家 badge
    ready: str = "听"  # 报听 badge
    auto: str = "托管"  # auto-play badge
    won: str = "胡"  # the winner's badge and the label above the winning tile
    dealt_in: str = "点炮"  # who fed the winning tile
    sanbao: str = "叁包"  # who pays everything
    session_winner: str = "赢家"  # the standings' first place
    total: str = "合计"  # the scoring items' sum
    wildcard: str = "宝"  # the variant's wildcard word (宝, 精 …), beside its indicator
    claim_wait: str = "等待吃碰杠胡…"  # a claim window is open
    drawn_hand: str = "流局 · 荒庄"  # nobody won
    winner_line: str = "{name} 胡"  # a result's headline
    points: str = "{n}分"  # a seat's score at the table
    hand_number: str = "第{n}局"
    wall_left: str = "剩余 {n} 张"
    turn: str = "轮到 {name}"
    hand_columns: tuple[str, str] = ("本局", "总分")  # 摊牌: this hand, session total
    #: the standings' columns: total, wins, self-draws, dealt in, biggest win
    standings_columns: tuple[str, str, str, str, str] = ("总分", "胡", "自摸", "点炮", "最大")


#: 简体中文, the default of every picture.
ZH_WORDS = PictureWords()

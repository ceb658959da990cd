"""Tile kinds, their names, and reading a single tile from text.

A *kind* is an index 0–33 (RULES §1): 0–8 characters 一万…九万 (``1m``–``9m``),
9–17 dots 一筒…九筒 (``1p``–``9p``), 18–26 bamboo 一条…九条 (``1s``–``9s``),
27–30 winds 东南西北 (``1z``–``4z``), 31–33 dragons 中发白 (``5z``–``7z``).

>>> kind_of("5m"), kind_of("东"), kind_of("红中"), kind_of("白板")
(4, 27, 31, 33)
>>> tile_str(31), zh_name(31), en_name(31)
('5z', '中', 'Red dragon')
>>> successor(8), successor(30), successor(33)
(0, 27, 31)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

N_KINDS = 34
SUITS = "mps"
SUIT_LETTERS = "mpsz"
HONOR_LETTERS = "ESWNCFP"  # 东南西北 中发白 as single capital letters

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # 中 发 白
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = tuple(range(27, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)

_ZH_NUM = "一二三四五六七八九"
_ZH_SUIT = "万筒条"
_ZH_HONOR = ("东", "南", "西", "北", "中", "发", "白")
_EN_SUIT = ("Characters", "Dots", "Bamboo")
_EN_HONOR = ("East", "South", "West", "North", "Red dragon", "Green dragon", "White dragon")


class TileError(ValueError):
    """A tile or hand text that cannot be read; the message names the bad part."""

    EXAMPLES = "e.g. 5m / 五万 / 5万, 东 / E / 1z, 红中 / C / 5z"

    def __init__(self, problem: str, bad: str = "") -> None:
        self.problem = problem
        self.bad = bad
        super().__init__(f"{problem} — {self.EXAMPLES}")


def suit_of(kind: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours."""
    return kind // 9 if kind < 27 else 3


def rank_of(kind: int) -> int:
    """1–9 for a suited tile, 1–7 for an honour (东南西北中发白)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal_or_honor(kind: int) -> bool:
    """幺九: a 1, a 9 or an honour."""
    return kind >= 27 or kind % 9 in (0, 8)


def tile_str(kind: int) -> str:
    """RULES §1 notation of one kind: ``5m``, ``7z``."""
    _check_kind(kind)
    return f"{rank_of(kind)}{SUIT_LETTERS[suit_of(kind)]}"


def zh_name(kind: int) -> str:
    """Chinese name: 五万, 三筒, 九条, 东, 中."""
    _check_kind(kind)
    if kind >= 27:
        return _ZH_HONOR[kind - 27]
    return _ZH_NUM[kind % 9] + _ZH_SUIT[kind // 9]


def en_name(kind: int) -> str:
    """English name: ``5 Characters``, ``East``, ``Red dragon``."""
    _check_kind(kind)
    if kind >= 27:
        return _EN_HONOR[kind - 27]
    return f"{kind % 9 + 1} {_EN_SUIT[kind // 9]}"


def successor(kind: int) -> int:
    """The kind after ``kind`` in the 宝 order (跌宝牌 → 宝).

    Within a suit 1→…→9→1; winds 东→南→西→北→东; dragons 中→发→白→中.
    """
    _check_kind(kind)
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def counts_of(kinds: Iterable[int]) -> list[int]:
    """34-count vector of a list of kinds."""
    counts = [0] * N_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def kinds_of(counts: Sequence[int]) -> list[int]:
    """Sorted list of kinds from a 34-count vector."""
    return [k for k in range(N_KINDS) for _ in range(counts[k])]


def _check_kind(kind: int) -> None:
    if not isinstance(kind, int) or not 0 <= kind < N_KINDS:
        raise TileError(f"no tile kind {kind!r}", str(kind))


# --- reading text ------------------------------------------------------------------------

#: Words for one whole tile (honours and a few common full names).
WORD_TILES: dict[str, int] = {}
for _i, _names in enumerate(
    (
        ("东", "东风", "東", "東風"),
        ("南", "南风", "南風"),
        ("西", "西风", "西風"),
        ("北", "北风", "北風"),
        ("中", "红中", "紅中"),
        ("发", "发财", "發", "發財", "青发"),
        ("白", "白板", "白皮"),
    )
):
    for _n in _names:
        WORD_TILES[_n] = 27 + _i

#: Rank words: Arabic, Chinese, and the financial (大写) numerals.
RANK_WORDS: dict[str, int] = {str(i): i for i in range(1, 10)}
for _i, _c in enumerate("一二三四五六七八九"):
    RANK_WORDS[_c] = _i + 1
for _i, _c in enumerate("壹贰叁肆伍陆柒捌玖"):
    RANK_WORDS[_c] = _i + 1
RANK_WORDS["幺"] = 1
RANK_WORDS["两"] = 2

#: Suit words (after the ranks): letter or Chinese.
SUIT_WORDS: dict[str, int] = {
    "m": 0,
    "万": 0,
    "萬": 0,
    "p": 1,
    "筒": 1,
    "饼": 1,
    "餅": 1,
    "s": 2,
    "条": 2,
    "條": 2,
    "索": 2,
    "z": 3,
}


def kind_of(word: str) -> int:
    """Read one tile: ``5m``, ``5z``, ``E``, ``五万``, ``伍万``, ``5万``, ``一饼``, ``一索``,
    ``红中``, ``白板``, ``发财``, ``东风``.

    >>> [kind_of(w) for w in ("1p", "一筒", "一饼", "9s", "九索", "4z", "北", "N")]
    [9, 9, 9, 26, 26, 30, 30, 30]
    >>> kind_of("0m")
    Traceback (most recent call last):
    ...
    engine.tiles.TileError: cannot read tile '0m' — e.g. 5m / 五万 / 5万, 东 / E / 1z, 红中 / C / 5z
    """
    w = word.strip()
    if w in WORD_TILES:
        return WORD_TILES[w]
    if len(w) == 1 and w in HONOR_LETTERS:
        return 27 + HONOR_LETTERS.index(w)
    if len(w) == 2 and w[0] in RANK_WORDS and w[1] in SUIT_WORDS:
        rank, suit = RANK_WORDS[w[0]], SUIT_WORDS[w[1]]
        if suit < 3:
            return suit * 9 + rank - 1
        if rank <= 7:
            return 27 + rank - 1
    raise TileError(f"cannot read tile {word!r}", word)

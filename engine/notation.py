"""The hand-string notation of RULES §1: reading and writing whole hands.

``123m 456p 789s 55z [111s] +1m`` — concealed tiles as digits then a suit letter, ``[...]``
an exposed meld, ``(...)`` a concealed kong (or Shangrao's 3-tile indicator kong), ``+X`` the
winning tile, written in the hand too. Chinese input is accepted (``123万 东东 [555条] +3万``).

>>> h = parse_hand("123m 456p 789s 55z [111s] +1m")
>>> h.winning, len(h.concealed), [m.kind.value for m in h.melds]
(0, 11, ['pong'])
>>> format_hand(h)
'123m456p789s55z [111s] +1m'
>>> format_hand(parse_hand("一二三万 456饼 789条 中中 [111条] +一万"))
'123m456p789s55z [111s] +1m'
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.refusal import Reason
from engine.tiles import (
    HONOR_LETTERS,
    N_KINDS,
    RANK_WORDS,
    SUIT_LETTERS,
    SUIT_WORDS,
    WORD_TILES,
    TileError,
    kind_of,
    suit_of,
    tile_str,
)

HAND_EXAMPLES = (
    "123m 456p 789s 11z [555s] +3m · 123万 456饼 789条 东东 [555条] +3万 · (1111z) 为暗杠"
)
EXTRA_WORDS = {"幺鸡": 18}


def _why(name: str, english: str, /, **params: object) -> Reason:
    """A reason a hand string cannot be read: key ``errors.notation.<name>``."""
    return Reason(f"errors.notation.{name}", english, **params)


class NotationError(TileError):
    """A hand string that cannot be read; names the bad part and shows correct examples."""

    def __init__(self, problem: str, bad: str = "") -> None:
        self.problem = problem
        self.bad = bad
        ValueError.__init__(self, f"{problem} — examples: {HAND_EXAMPLES}")


class MeldKind(enum.Enum):
    """What a meld on the table is."""

    CHI = "chi"  # 吃: a claimed sequence
    PONG = "pong"  # 碰
    KONG = "kong"  # 明杠 / 补杠: exposed four-of-a-kind
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    INDICATOR_KONG = "indicator_kong"  # 上饶: the three tiles of the 跌宝牌's kind, no replacement


@dataclass(frozen=True)
class Meld:
    """A set laid on the table. ``fed_by`` is the seat whose discard was claimed (叁包)."""

    kind: MeldKind
    tiles: tuple[int, ...]
    fed_by: int | None = None

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_concealed(self) -> bool:
        return self.kind in (MeldKind.CONCEALED_KONG, MeldKind.INDICATOR_KONG)

    @property
    def is_triplet_like(self) -> bool:
        """A pong or a kong of any sort (碰碰胡 counts these)."""
        return self.kind is not MeldKind.CHI

    def text(self) -> str:
        """``[123m]``, ``[555p]``, ``[7777s]``, ``(1111z)``."""
        body = _compact(self.tiles)
        return f"({body})" if self.is_concealed else f"[{body}]"


@dataclass(frozen=True)
class Hand:
    """A hand: sorted concealed kinds (the winning tile included), melds, the winning tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    winning: int | None = None

    def counts(self) -> list[int]:
        """34-count vector of the concealed tiles."""
        c = [0] * N_KINDS
        for k in self.concealed:
            c[k] += 1
        return c

    def all_tiles(self) -> list[int]:
        """Every tile of the hand, concealed and melded."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out


def parse_hand(text: str, *, finished: bool | None = None) -> Hand:
    """Read a hand string. ``finished=True`` needs ``+X`` and 14 tiles (+1 per kong);
    ``False`` needs 13 (+1 per kong) and no ``+``; ``None`` accepts either.

    >>> parse_hand("123m456m789m1234p +1p")
    Traceback (most recent call last):
    ...
    engine.notation.NotationError: the hand has 13 tiles but a finished hand with 0 melds needs 14 ...
    """
    if not isinstance(text, str) or not text.strip():
        raise NotationError(_why("empty", "the hand is empty"), "")
    text = normalise_input(text)
    if len(text) > 200:
        raise NotationError(
            _why("too_long", "the hand text is too long (200 characters at most)"), text[:20]
        )
    s = "".join(text.split())
    body, plus, win_text = s.partition("+")
    if "+" in win_text:
        raise NotationError(
            _why("two_plus", "only one '+' (the winning tile) is allowed"), win_text
        )
    winning = None
    if plus:
        if not win_text:
            raise NotationError(_why("plus_alone", "'+' must be followed by the winning tile"), "+")
        winning = kind_of_or_error(win_text)
    concealed: list[int] = []
    melds: list[Meld] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch in "[(":
            close = "]" if ch == "[" else ")"
            j = body.find(close, i + 1)
            if j < 0:
                raise NotationError(
                    _why(
                        "unclosed", "'{open}' is never closed with '{close}'", open=ch, close=close
                    ),
                    body[i:],
                )
            inner = body[i + 1 : j]
            if any(c in "[]()" for c in inner):
                raise NotationError(_why("nested", "melds cannot be nested"), body[i : j + 1])
            melds.append(_meld(_read_tiles(inner), concealed=ch == "(", text=body[i : j + 1]))
            i = j + 1
            continue
        if ch in "])":
            raise NotationError(_why("closes_nothing", "'{close}' closes nothing", close=ch), ch)
        j = _run_end(body, i)
        concealed.extend(_read_tiles(body[i:j]))
        i = j
    hand = Hand(tuple(sorted(concealed)), tuple(melds), winning)
    _validate(hand, finished)
    return hand


def normalise_input(text: str) -> str:
    """Fold what a Chinese input method types into the notation's ASCII: full-width digits,
    letters, ``＋`` and brackets (``１２３万`` → ``123万``, ``【１１１ｍ】`` → ``[111m]``).

    >>> normalise_input("１２３万 ＋５ｐ（５５５ｓ）【７７７ｚ】")
    '123万 +5p(555s)[777z]'
    """
    return unicodedata.normalize("NFKC", text).translate(_BRACKETS)


_BRACKETS = str.maketrans({"【": "[", "】": "]", "〔": "[", "〕": "]"})


def kind_of_or_error(word: str) -> int:
    """Like :func:`engine.tiles.kind_of` but raising :class:`NotationError`."""
    word = normalise_input(word)
    if word in EXTRA_WORDS:
        return EXTRA_WORDS[word]
    try:
        return kind_of(word)
    except TileError:
        raise NotationError(
            _why("bad_tile", "cannot read tile {word!r}", word=word), word
        ) from None


def parse_tiles(text: str) -> list[int]:
    """Read a plain run of tiles with no melds: ``"123m 55z"`` → kinds in written order."""
    return _read_tiles("".join(normalise_input(text).split()))


def _run_end(s: str, i: int) -> int:
    j = i
    while j < len(s) and s[j] not in "[]()":
        j += 1
    return j


def _read_tiles(s: str) -> list[int]:
    """Read digits-then-suit runs, honour letters and Chinese words."""
    out: list[int] = []
    ranks: list[int] = []
    start = 0
    i = 0
    while i < len(s):
        if not ranks:
            word = next(
                (w for w in (s[i : i + 2], s[i]) if w in WORD_TILES or w in EXTRA_WORDS), None
            )
            if word is not None:
                out.append(WORD_TILES.get(word, EXTRA_WORDS.get(word, 0)))
                i += len(word)
                continue
            if s[i] in HONOR_LETTERS:
                out.append(27 + HONOR_LETTERS.index(s[i]))
                i += 1
                continue
            start = i
        ch = s[i]
        if ch in RANK_WORDS:
            ranks.append(RANK_WORDS[ch])
        elif ch in SUIT_WORDS:
            suit = SUIT_WORDS[ch]
            if not ranks:
                raise NotationError(
                    _why("suit_alone", "suit '{suit}' has no numbers before it", suit=ch), ch
                )
            for r in ranks:
                if suit == 3 and r > 7:
                    raise NotationError(
                        _why("no_honour", "there is no honour tile '{tile}' (1z–7z)", tile=f"{r}z"),
                        f"{r}z",
                    )
                out.append(suit * 9 + r - 1 if suit < 3 else 27 + r - 1)
            ranks = []
        else:
            raise NotationError(
                _why("unreadable", "cannot read {part!r}", part=s[start : i + 1]), s[start : i + 1]
            )
        i += 1
    if ranks:
        raise NotationError(
            _why("no_suit", "{part!r} has no suit (m/p/s/z or 万/筒/条)", part=s[start:]),
            s[start:],
        )
    return out


def _meld(tiles: list[int], *, concealed: bool, text: str) -> Meld:
    t = tuple(sorted(tiles))
    same = len(set(t)) == 1
    if concealed:
        if same and len(t) == 4:
            return Meld(MeldKind.CONCEALED_KONG, t)
        if same and len(t) == 3:
            return Meld(MeldKind.INDICATOR_KONG, t)
        raise NotationError(
            _why(
                "not_concealed_kong",
                "{meld} is not a concealed kong: write four equal tiles, e.g. (1111z)",
                meld=text,
            ),
            text,
        )
    if same and len(t) == 3:
        return Meld(MeldKind.PONG, t)
    if same and len(t) == 4:
        return Meld(MeldKind.KONG, t)
    if (
        len(t) == 3
        and t[0] < 27
        and suit_of(t[0]) == suit_of(t[2])
        and t[1] == t[0] + 1
        and t[2] == t[0] + 2
    ):
        return Meld(MeldKind.CHI, t)
    raise NotationError(
        _why(
            "not_a_meld",
            "{meld} is not a meld: write a chi [123m], a pong [555p] or a kong [7777s]",
            meld=text,
        ),
        text,
    )


def _validate(hand: Hand, finished: bool | None) -> None:
    total = [0] * N_KINDS
    for k in hand.all_tiles():
        total[k] += 1
    for k, n in enumerate(total):
        if n > 4:
            raise NotationError(
                _why(
                    "too_many",
                    "{n} copies of {tile}: there are only 4 of each tile",
                    n=n,
                    tile=tile_str(k),
                ),
                tile_str(k),
            )
    size = len(hand.concealed) + 3 * len(hand.melds)
    want_finished = hand.winning is not None if finished is None else finished
    if want_finished and hand.winning is None:
        raise NotationError(
            _why("no_winning", "a finished hand needs its winning tile after '+', e.g. '… +3m'"),
            "",
        )
    if not want_finished and hand.winning is not None:
        raise NotationError(
            _why("waiting_plus", "a waiting hand has no '+' winning tile"),
            f"+{tile_str(hand.winning)}",
        )
    need = 14 if want_finished else 13
    if size != need:
        n_tiles = len(hand.all_tiles())
        kongs = sum(1 for m in hand.melds if len(m.tiles) == 4)
        raise NotationError(
            _why(
                "count_finished" if want_finished else "count_waiting",
                "the hand has {n} tiles but a {what} hand with {melds} melds needs "
                "{want} ({need} plus one per kong)",
                n=n_tiles,
                what="finished" if want_finished else "waiting",
                melds=len(hand.melds),
                want=need + kongs,
                need=need,
            ),
            "",
        )
    if hand.winning is not None and hand.winning not in hand.concealed:
        w = tile_str(hand.winning)
        raise NotationError(
            _why(
                "winning_missing",
                "the winning tile {tile} must also be written in the concealed hand",
                tile=w,
            ),
            w,
        )


def format_tiles(kinds: Iterable[int]) -> str:
    """Compact notation of concealed kinds, sorted, one run per suit: ``123m55z``."""
    return _compact(sorted(kinds))


def _compact(kinds: Sequence[int]) -> str:
    out: list[str] = []
    for suit, letter in enumerate(SUIT_LETTERS):
        ranks = [tile_str(k)[0] for k in kinds if suit_of(k) == suit]
        if ranks:
            out.append("".join(ranks) + letter)
    return "".join(out)


def format_hand(hand: Hand) -> str:
    """Write a hand back in RULES §1 notation (parses back to an equal hand)."""
    parts = [format_tiles(hand.concealed)] if hand.concealed else []
    parts.extend(m.text() for m in hand.melds)
    if hand.winning is not None:
        parts.append(f"+{tile_str(hand.winning)}")
    return " ".join(parts)

"""Check that concealed information (hands, the wall) never reached someone who may not see it,
and that nothing public lets anyone infer who may claim a discard or who passed
(:func:`assert_claims_secret`).

Generic: callers pass the strings that must stay hidden (e.g. each concealed hand as the
bot would render it). Every version of every message is scanned (edits and deleted messages
included, since they were shown once): content, embeds, component texts and custom_ids,
attachment file names, and the bytes of text-like attachments.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .fake_discord import FakeDiscord, FakeMessage, FakeUser

TEXT_KEYS = ("content", "label", "placeholder", "description", "title", "value", "name", "text")


@dataclass(frozen=True)
class Leak:
    """One forbidden string found in a message someone could see."""

    secret: str
    message_id: int
    channel_id: int
    where: str
    audience: str

    def __str__(self) -> str:
        return (
            f"{self.secret!r} found in {self.where} of message {self.message_id} "
            f"(channel {self.channel_id}, seen by {self.audience})"
        )


def _texts(obj: Any, path: str) -> Iterable[tuple[str, str]]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _texts(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _texts(value, f"{path}[{i}]")
    elif isinstance(obj, str):
        yield path, obj


def message_texts(msg: FakeMessage, *, include_custom_ids: bool = True) -> list[tuple[str, str]]:
    """(where, text) for every string a viewer could obtain from any version of ``msg``."""
    out: list[tuple[str, str]] = []
    for n, version in enumerate(msg.versions()):
        tag = f"v{n}"
        out.append((f"{tag}.content", version["content"]))
        for where, text in _texts(version["embeds"], f"{tag}.embeds"):
            out.append((where, text))
        for where, text in _texts(version["components"], f"{tag}.components"):
            leaf = where.rsplit(".", 1)[-1]
            if leaf == "custom_id" and not include_custom_ids:
                continue
            if leaf in (*TEXT_KEYS, "custom_id", "url", "emoji"):
                out.append((where, text))
        for name in version["attachments"]:
            out.append((f"{tag}.attachment-name", name))
    for att in msg.attachments:
        if att.content_type is None or att.content_type.startswith(("text/", "application/json")):
            out.append((f"attachment:{att.filename}", att.data.decode("utf-8", errors="ignore")))
    return out


def audience_of(fake: FakeDiscord, msg: FakeMessage) -> FakeUser | None:
    """The one user who can see ``msg`` (DM recipient, ephemeral target), or ``None`` = everyone."""
    if msg.visible_to is not None:
        return msg.visible_to
    channel = fake.channels.get(msg.channel_id)
    if channel is not None and channel.is_dm:
        return channel.recipient
    return None


def find_leaks(
    fake: FakeDiscord,
    secrets: Iterable[str],
    *,
    owner: FakeUser | None = None,
    include_custom_ids: bool = True,
) -> list[Leak]:
    """Every place a secret appears where someone other than ``owner`` could see it.

    With ``owner=None`` only public messages (guild channels, not ephemeral) are scanned:
    the secret must never be shown to the table. With an owner, messages visible only to
    the owner (their DMs and ephemeral replies) are allowed; everything else is a leak.
    """
    wanted = [s for s in secrets if s]
    leaks: list[Leak] = []
    for msg in fake.all_messages(include_deleted=True):
        viewer = audience_of(fake, msg)
        if viewer is not None and (owner is None or viewer.id == owner.id):
            continue
        audience = "everyone in the channel" if viewer is None else viewer.name
        for where, text in message_texts(msg, include_custom_ids=include_custom_ids):
            for secret in wanted:
                if secret in text:
                    leaks.append(Leak(secret, msg.id, msg.channel_id, where, audience))
    return leaks


def assert_no_concealed_leak(
    fake: FakeDiscord,
    secrets: Iterable[str],
    *,
    owner: FakeUser | None = None,
    include_custom_ids: bool = True,
) -> None:
    """Fail if any ``secrets`` string was shown outside what ``owner`` alone may see.

    ``assert_no_concealed_leak(fake, ["1m1m2m3m…"])`` — never in a public message;
    ``assert_no_concealed_leak(fake, alice_hand, owner=alice)`` — only in Alice's DMs/ephemerals.
    """
    secrets = list(secrets)
    leaks = find_leaks(fake, secrets, owner=owner, include_custom_ids=include_custom_ids)
    if leaks:
        lines = "\n".join(f"  - {leak}" for leak in leaks[:20])
        more = f"\n  … and {len(leaks) - 20} more" if len(leaks) > 20 else ""
        raise AssertionError(f"concealed information leaked ({len(leaks)}):\n{lines}{more}")


def assert_hands_private(
    fake: FakeDiscord, hands: Mapping[FakeUser, Iterable[str]], **kwargs: Any
) -> None:
    """Each user's secrets may appear only in messages that user alone sees."""
    for user, secrets in hands.items():
        assert_no_concealed_leak(fake, secrets, owner=user, **kwargs)


# ---------------------------------------------------------------------------------------
# Inference: who may claim a discard, and who passed, is never public.
#
# A table that waits on claims looks the same whoever may claim; nothing public says who
# passed; while a claim window is open no public line names (or mentions) a player other
# than the discarder, except the lines that report public actions (a claim, a kong, a win…).


@dataclass(frozen=True)
class Player:
    """A seat as the checker knows it: its name and, for a human, the Discord user id."""

    name: str
    user_id: int | None = None

    def found_in(self, text: str) -> bool:
        if self.user_id is not None and f"<@{self.user_id}>" in text:
            return True
        return bool(self.name) and self.name in text


@dataclass(frozen=True)
class ClaimWindow:
    """A claim window humans were asked about, from the bot's log: open from ``opened`` to
    ``closed`` (``time.time()`` seconds; None = still open), on ``discarder``'s tile, with
    ``wall_left`` tiles left then (with the discarder, it names the discard)."""

    opened: float
    closed: float | None
    discarder: Player
    claimants: tuple[Player, ...] = ()
    wall_left: int | None = None


def _templates(players: Iterable[Player], *keys: str) -> list[re.Pattern[str]]:
    """Regexes of catalogue sentences (every language form), one group per placeholder: a
    name matches a player's name or mention, a tile a tile's name, a claim word a claim
    word, anything else any text."""
    from engine.tiles import tile_str
    from i18n.catalog import LOCALES, messages

    def alts(words: Iterable[str]) -> str:
        return (
            "(?:" + "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True)) + ")"
        )

    people = [p.name for p in players] + [f"<@{p.user_id}>" for p in players if p.user_id]
    tiles = [messages(lc)[f"common.tile.{tile_str(k)}"] for lc in LOCALES for k in range(34)]
    tiles.append("?")
    words = [
        text
        for lc in LOCALES
        for key, text in messages(lc).items()
        if key.startswith(("common.claim.", "common.timeout."))
    ]
    slot = {
        "name": alts(people),
        "payer": alts(people),
        "dealer": alts(people),
        "mention": alts(people),
        "tile": alts(tiles),
        "what": alts(words + [f"{zh} · {en}" for zh in words for en in words]),
    }
    out = []
    for key in keys:
        zh, tw, en = (messages(lc)[key] for lc in LOCALES)
        for form in (zh, tw, en, f"{zh} · {en}"):
            parts = re.split(r"(\{[a-z_]+\})", form)
            rx = "".join(
                f"({slot.get(part[1:-1], '.+?')})" if part.startswith("{") else re.escape(part)
                for part in parts
            )
            out.append(re.compile(f"^{rx}$"))
    return out


#: lines reporting something public (an action, a turn that timed out, 托管 switched by its
#: player): they may name anyone, at any time (a pass is caught by :data:`PASS_RX` first)
PUBLIC_ACTION_KEYS = (
    "game.line_hand_started",
    "game.line_dice",
    "game.line_claimed",
    "game.line_kong",
    "game.line_concealed_kong",
    "game.line_ready",
    "game.line_flower",
    "game.line_won_self",
    "game.line_won_discard",
    "game.line_won_rob",
    "game.line_drawn",
    "game.line_timeout",
    "game.line_auto_on",
    "game.line_auto_off",
    "game.line_dm_closed",  # once per game, for everyone whose DMs are closed
    # how the first dealer was chosen (each seat's dealer roll, or the East seat): posted with
    # the first hand's opening line, which may land after the dealer's first discard
    "session.line_dealer_dice",
    "session.line_dealer_seat",
)
PASS_RX = re.compile(r"自动过|(?<![超经通不])过(?![期去来])|\bauto-pass\b|\bpass(?:es|ed)?\b", re.I)


def _public_versions(fake: FakeDiscord, *, ephemeral: bool = False) -> Iterable[tuple]:
    """``(time.time() seconds, message, version number, version)`` of every version of every
    public message (with ``ephemeral``, ephemeral replies too: anyone may ask for one)."""
    offset = time.time() - time.monotonic()
    for msg in fake.all_messages(include_deleted=True):
        viewer = audience_of(fake, msg)
        if viewer is not None and not (ephemeral and msg.visible_to is not None):
            continue
        times = [msg.created_at, *msg.edit_times]
        for n, version in enumerate(msg.versions()):
            at = times[n] if n < len(times) else times[-1]
            yield at + offset, msg, n, version


def _version_lines(version: dict[str, Any]) -> list[str]:
    texts = [version["content"]]
    for _where, text in _texts(version["embeds"], "embeds"):
        texts.append(text)
    for where, text in _texts(version["components"], "components"):
        if where.rsplit(".", 1)[-1] in TEXT_KEYS:
            texts.append(text)
    return [line for text in texts for line in text.splitlines() if line.strip()]


def _header(line: str, players: Iterable[Player]) -> Player | None:
    """The player a table seat line is about (``**name**…``, ``▶ **name**…``), or None."""
    bare = line.removeprefix("▶ ").removeprefix("▶")
    for p in players:
        if p.name and bare.startswith(f"**{p.name}**"):
            return p
    return None


def find_claim_leaks(
    fake: FakeDiscord,
    players: Iterable[Player],
    windows: Iterable[ClaimWindow] = (),
) -> list[str]:
    """Everything public (and every ``/mahjong status`` answer) that tells who may claim a
    discard or who passed. ``windows`` (from the bot's log) adds the timing rule: lines
    posted while a window is open name nobody but the discarder, unless they report a
    public action."""
    from i18n.catalog import LOCALES, messages

    players = list(players)
    windows = list(windows)
    turn_rx = _templates(players, "game.turn")
    over = {messages(lc)["game.hand_over"] for lc in LOCALES}
    allowed = _templates(players, *PUBLIC_ACTION_KEYS)
    leaks: list[str] = []
    for at, msg, n, version in _public_versions(fake, ephemeral=True):
        lines = _version_lines(version)
        where = f"message {msg.id} v{n}"
        heads = [h for line in lines if (h := _header(line, players)) is not None]
        public = msg.visible_to is None
        # 1. a table (seat lines) in a claim window: the same for every claimant
        if heads:
            turn = [m.group(1) for line in lines for rx in turn_rx if (m := rx.match(line))]
            if turn:  # someone's turn: the ▶ is theirs alone
                for line in lines:
                    h = _header(line, players)
                    if line.startswith("▶") and (h is None or h.name not in turn[0]):
                        leaks.append(f"{where}: ▶ on a seat whose turn it is not: {line!r}")
            elif not any(o in line for line in lines for o in over):
                others = [line for line in lines if _header(line, players) is None]
                named = {p.name for p in players for line in others if p.found_in(line)}
                if any("▶" in line for line in lines):
                    leaks.append(f"{where}: a ▶ while claims are awaited")
                if len(named) > 1:  # the discarder at most
                    leaks.append(f"{where}: the claim wait names {sorted(named)}")
        # 2. nothing public says who passed
        if public:
            for line in lines:
                if PASS_RX.search(line) and any(p.found_in(line) for p in players):
                    leaks.append(f"{where}: says who passed: {line!r}")
        # 3. while a window is open: no other player named, except in public-action lines
        if not public or n != 0 or heads:
            continue
        for w in windows:
            if not (w.opened < at and (w.closed is None or at < w.closed)):
                continue
            for line in lines:
                if any(rx.match(line) for rx in allowed):
                    continue
                named = [p.name for p in players if p != w.discarder and p.found_in(line)]
                if named:
                    leaks.append(
                        f"{where}: names {named} while {w.discarder.name}'s discard waits "
                        f"for claims: {line!r}"
                    )
    return leaks


def assert_claims_secret(
    fake: FakeDiscord, players: Iterable[Player], windows: Iterable[ClaimWindow] = ()
) -> None:
    """Fail when anything public tells who may claim a discard or who passed
    (:func:`find_claim_leaks`)."""
    leaks = find_claim_leaks(fake, players, windows)
    if leaks:
        lines = "\n".join(f"  - {leak}" for leak in leaks[:20])
        more = f"\n  … and {len(leaks) - 20} more" if len(leaks) > 20 else ""
        raise AssertionError(f"claims were not kept secret ({len(leaks)}):\n{lines}{more}")

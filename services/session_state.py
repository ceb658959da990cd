"""A session as a Jiangxi table plays it (房卡麻将): its length, the 准备 ready check between
hands, the 解散 dissolve vote and the 再来一局 rematch — the state, its log entries and the
standings. Plain values, no Discord, no engine classes; :mod:`services.session` changes it.

**Length.** ``4`` / ``8`` / ``16`` hands, or ``1圈`` / ``2圈`` / ``4圈`` rounds. A round (圈)
is the deal passing all the way round, counted by each variant's own dealer rules (RULES
§3–§5): every hand moves the deal forward by ``(next dealer − dealer) mod 4`` seats (0 when
the dealer keeps it, 1 for the 下家, 2 or 3 when a winner across or on the left takes it in
上饶 / 新余 / 九江's "the winner deals"); a round is over once the deal has gone forward four
seats in all — back to, or past, the seat that dealt the round's first hand. The game ends by
itself when its last hand ends. A game stored before sessions existed has no length and goes
on until it is ended.

**Log entries** (beside those of :mod:`services.gamelog`), applied by :func:`apply_entry`:

- ``{"k": "setup", "length": "8", "ready_timeout": 60, "vote_timeout": 60, "rematch_of": 12}``
  — the lobby's session, from the server's options (its first entry);
- ``{"k": "rdy", "hand": 3}`` (seat) — the seat pressed 准备 after hand 3;
- ``{"k": "vote", "op": "propose", "no": 2, "at": t}`` (seat) — 解散 proposed (vote no. 2);
- ``{"k": "vote", "op": "yes" | "no", "no": 2}`` (seat) — an answer; ``no`` refuses at once;
- ``{"k": "end", "why": "length" | "vote" | "admin"}`` — why the game ended (``vote``: the
  vote passed — everyone agreed, or ``"expired": true``, silence agreed at its deadline);
- ``{"k": "rematch", "game": 15, "user": 101}`` (seat) — a 再来一局 press, on the old game;
- ``"owed": [3]`` on a ``next`` entry (:mod:`services.gamelog`) — the results not yet posted
  when that hand was dealt (:func:`note_deal`).

The state is also kept in every snapshot (``session``), so a restart resumes a ready check
or a vote with the same deadline and no press is applied twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.refusal import Reason

#: The lengths ``/mahjong new`` and the server option accept (hands, or rounds 圈).
LENGTHS = ("4", "8", "16", "1圈", "2圈", "4圈")
DEFAULT_LENGTH = "8"
#: The built-in 准备 and 解散 timeouts of a server (seconds); a server that kept it gets the
#: bot's own default (``READY_TIMEOUT_SECONDS`` / ``VOTE_TIMEOUT_SECONDS``).
BUILTIN_TIMEOUT = 60
#: Seconds a player who proposed 解散 waits before proposing again.
PROPOSE_COOLDOWN = 120.0
#: Why a game ended (``ended_by``): its length, a 解散 vote, a server manager, or (old
#: games) the players' 结束对局.
END_REASONS = ("length", "vote", "admin", "players")

_ALIASES = {
    "1r": "1圈",
    "2r": "2圈",
    "4r": "4圈",
    "1quan": "1圈",
    "2quan": "2圈",
    "4quan": "4圈",
    "4h": "4",
    "8h": "8",
    "16h": "16",
    "4局": "4",
    "8局": "8",
    "16局": "16",
}


def parse_length(text: Any) -> str:
    """A length as stored (``8`` or ``2圈``); ``ValueError`` names the choices.

    >>> parse_length("16"), parse_length("2r"), parse_length(" 1圈 ")
    ('16', '2圈', '1圈')
    """
    raw = str(text or "").strip().lower().replace(" ", "")
    value = _ALIASES.get(raw, raw)
    if value not in LENGTHS:
        raise ValueError(
            Reason(
                "errors.setting.length",
                "length must be one of {allowed} (圈 = rounds)",
                allowed=", ".join(LENGTHS),
            )
        )
    return value


def length_parts(length: str | None) -> tuple[str, int] | None:
    """``("hands", 8)`` or ``("rounds", 2)``; None for an open-ended (old) game."""
    if length is None:
        return None
    if length.endswith("圈"):
        return "rounds", int(length[:-1])
    return "hands", int(length)


@dataclass
class Vote:
    """A 解散 vote: number ``no``, proposed by seat ``by`` at ``at`` (epoch seconds);
    ``answers`` seat → agreed; ``result`` None while open, else ``passed`` / ``refused``."""

    no: int
    by: int
    at: float
    answers: dict[int, bool] = field(default_factory=dict)
    result: str | None = None

    @property
    def open(self) -> bool:
        return self.result is None

    def to_json(self) -> dict[str, Any]:
        return {
            "no": self.no,
            "by": self.by,
            "at": self.at,
            "answers": {str(s): a for s, a in self.answers.items()},
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Vote:
        return cls(
            no=int(data["no"]),
            by=int(data["by"]),
            at=float(data["at"]),
            answers={int(s): bool(a) for s, a in dict(data.get("answers") or {}).items()},
            result=data.get("result"),
        )


@dataclass
class SessionState:
    """The session of one game (see the module docstring)."""

    length: str | None = None
    rematch_of: int | None = None
    #: seconds for the 准备 check and for a 解散 vote (None: the service's defaults)
    ready_timeout: float | None = None
    vote_timeout: float | None = None
    #: the hand whose ready check is (or was last) open, and when it opened
    ready_hand: int = 0
    ready_at: float = 0.0
    ready: set[int] = field(default_factory=set)
    vote: Vote | None = None
    votes: int = 0  # votes proposed so far (numbers the next)
    proposed_at: dict[int, float] = field(default_factory=dict)
    ended_by: str | None = None
    rematch_game: int | None = None
    rematch_users: list[int] = field(default_factory=list)
    #: hands whose result had not gone out when the next hand was dealt (a table of AI and
    #: 托管 seats deals at once), as the last ``next`` entry noted them: handed over again
    #: after a restart unless noted posted since — the game's stored ``result_posted``
    #: clears them (:mod:`services.results_owed`, ``_queue_owed_results``)
    results_owed: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "rematch_of": self.rematch_of,
            "ready_timeout": self.ready_timeout,
            "vote_timeout": self.vote_timeout,
            "ready_hand": self.ready_hand,
            "ready_at": self.ready_at,
            "ready": sorted(self.ready),
            "vote": self.vote.to_json() if self.vote is not None else None,
            "votes": self.votes,
            "proposed_at": {str(s): t for s, t in self.proposed_at.items()},
            "ended_by": self.ended_by,
            "rematch_game": self.rematch_game,
            "rematch_users": list(self.rematch_users),
            "results_owed": list(self.results_owed),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> SessionState:
        if not isinstance(data, dict):
            return cls()
        vote = data.get("vote")
        return cls(
            length=data.get("length"),
            rematch_of=data.get("rematch_of"),
            ready_timeout=_seconds(data.get("ready_timeout")),
            vote_timeout=_seconds(data.get("vote_timeout")),
            ready_hand=int(data.get("ready_hand", 0)),
            ready_at=float(data.get("ready_at", 0.0)),
            ready={int(s) for s in data.get("ready", [])},
            vote=Vote.from_json(vote) if isinstance(vote, dict) else None,
            votes=int(data.get("votes", 0)),
            proposed_at={int(s): float(t) for s, t in dict(data.get("proposed_at") or {}).items()},
            ended_by=data.get("ended_by"),
            rematch_game=data.get("rematch_game"),
            rematch_users=[int(u) for u in data.get("rematch_users", [])],
            results_owed=[int(h) for h in data.get("results_owed") or []],
        )

    @property
    def vote_open(self) -> bool:
        return self.vote is not None and self.vote.open


SESSION_KINDS = ("setup", "rdy", "vote", "rematch")


def _seconds(value: Any) -> float | None:
    """A stored timeout (seconds), or None when absent or unusable."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def open_ready_check(session: SessionState, hand_no: int, at: float) -> bool:
    """Hand ``hand_no`` just ended: its 准备 check opens at ``at`` (once; True when now)."""
    if session.ready_hand == hand_no:
        return False
    session.ready_hand = hand_no
    session.ready_at = at
    session.ready = set()
    return True


def note_deal(session: SessionState, entry: dict[str, Any]) -> None:
    """A ``next`` entry (the next hand dealt): the results it notes still owed replace those
    noted before (``{"k": "next", "seed": hex, "owed": [3]}``)."""
    session.results_owed = sorted({int(h) for h in entry.get("owed") or []})


def apply_entry(session: SessionState, seat: int | None, entry: dict[str, Any], at: float) -> bool:
    """Apply one session log entry (see the module docstring); False when ``entry`` is not
    one of them. ``end`` entries are read by the caller too (they also close the game)."""
    kind = entry.get("k")
    if kind == "setup":
        length = entry.get("length")
        session.length = str(length) if length else None
        session.rematch_of = entry.get("rematch_of")
        session.ready_timeout = _seconds(entry.get("ready_timeout"))
        session.vote_timeout = _seconds(entry.get("vote_timeout"))
    elif kind == "rdy":
        if seat is not None and int(entry.get("hand", -1)) == session.ready_hand:
            session.ready.add(seat)
    elif kind == "vote":
        op = entry.get("op")
        if op == "propose" and seat is not None:
            session.votes = max(session.votes, int(entry.get("no", session.votes + 1)))
            when = float(entry.get("at", at))
            session.vote = Vote(no=session.votes, by=seat, at=when, answers={seat: True})
            session.proposed_at[seat] = when
        elif session.vote is not None and int(entry.get("no", -1)) == session.vote.no:
            vote = session.vote
            if op in ("yes", "no") and seat is not None and vote.open:
                vote.answers[seat] = op == "yes"
                if op == "no":
                    vote.result = "refused"
    elif kind == "rematch":
        game = entry.get("game")
        if game is not None:
            session.rematch_game = int(game)
        user = entry.get("user")
        if user is not None and int(user) not in session.rematch_users:
            session.rematch_users.append(int(user))
    elif kind == "end":
        why = entry.get("why")
        session.ended_by = str(why) if why else "players"
        if session.vote is not None and session.vote.open:
            session.vote.result = "passed" if why == "vote" else "closed"
        return False
    else:
        return False
    return True


# ---------------------------------------------------------------------------- progress


def deal_steps(history: Sequence[dict[str, Any]]) -> int:
    """How far the deal has moved forward over the ended hands (seats, in play order)."""
    steps = 0
    for hand in history:
        dealer, nxt = hand.get("dealer"), hand.get("next_dealer")
        if isinstance(dealer, int) and isinstance(nxt, int):
            steps += (nxt - dealer) % 4
    return steps


def complete(length: str | None, history: Sequence[dict[str, Any]]) -> bool:
    """Whether a session of ``length`` is over after the ended hands ``history``."""
    parts = length_parts(length)
    if parts is None:
        return False
    unit, n = parts
    if unit == "hands":
        return len(history) >= n
    return deal_steps(history) >= 4 * n


@dataclass(frozen=True)
class Progress:
    """Where the session stands: hand ``hand_no`` of ``hands`` (None: counted in rounds or
    open-ended), in round ``round_no`` of ``rounds`` (None: counted in hands)."""

    hand_no: int
    hands: int | None = None
    round_no: int | None = None
    rounds: int | None = None


def progress(length: str | None, hand_no: int, history: Sequence[dict[str, Any]]) -> Progress:
    """The session's progress while hand ``hand_no`` is played (or just ended); ``history``
    holds the ended hands (the current one included once it is over)."""
    parts = length_parts(length)
    if parts is None:
        return Progress(hand_no)
    unit, n = parts
    if unit == "hands":
        return Progress(hand_no, hands=n)
    before = [h for h in history if int(h.get("hand", -1)) < hand_no - 1]
    return Progress(hand_no, round_no=min(n, deal_steps(before) // 4 + 1), rounds=n)


# ---------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Standing:
    """One seat's line of the final standings."""

    seat: int
    total: int
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0  # 点炮: discards (or robbed kongs) that paid a win
    biggest: int = 0  # the most points of one hand this seat won
    rank: int = 1


def standings(totals: Sequence[int], history: Sequence[dict[str, Any]]) -> tuple[Standing, ...]:
    """Each seat's total, hands won, 自摸, 点炮 and biggest hand, ranked by total (ties
    share a rank), in seat order."""
    seats = len(totals)
    wins = [0] * seats
    selfs = [0] * seats
    dealt = [0] * seats
    biggest = [0] * seats
    for hand in history:
        how = hand.get("how")
        points = list(hand.get("points") or [])
        for i, seat in enumerate(hand.get("winners") or []):
            if not isinstance(seat, int) or not 0 <= seat < seats:
                continue
            wins[seat] += 1
            if how == "self":
                selfs[seat] += 1
            if i < len(points):
                biggest[seat] = max(biggest[seat], int(points[i]))
        payer = hand.get("payer")
        if how in ("discard", "rob_kong") and isinstance(payer, int) and 0 <= payer < seats:
            dealt[payer] += 1
    return tuple(
        Standing(
            seat=s,
            total=int(totals[s]),
            wins=wins[s],
            self_draws=selfs[s],
            dealt_in=dealt[s],
            biggest=biggest[s],
            rank=1 + sum(1 for o in totals if o > totals[s]),
        )
        for s in range(seats)
    )


# ---------------------------------------------------------------------------- what the cogs see


@dataclass(frozen=True)
class VoteInfo:
    """A 解散 vote as delivery shows it: ``answers`` per seat (True agreed, False refused,
    None not yet; AI seats agree), the deadline, the result (None while open)."""

    no: int
    by: int
    deadline: float
    answers: tuple[bool | None, ...]
    result: str | None = None
    voters: tuple[int, ...] = ()  # the human seats asked (not the proposer)


@dataclass(frozen=True)
class SessionInfo:
    """The session as delivery and the cogs see it (a copy)."""

    length: str | None = None
    progress: Progress | None = None
    complete: bool = False
    hands_played: int = 0  # hands that ended (a hand cut short by 解散 is not one)
    #: the 准备 check after a hand: open, its deadline, who is ready (AI and 托管 seats are)
    ready_open: bool = False
    ready_hand: int = 0
    ready_deadline: float | None = None
    ready: tuple[bool, ...] = ()
    vote: VoteInfo | None = None
    ended_by: str | None = None
    standings: tuple[Standing, ...] = ()
    rematch_of: int | None = None
    rematch_game: int | None = None
    rematch_users: tuple[int, ...] = ()
    #: the rematch lobby no longer takes presses (it started, or closed)
    rematch_closed: bool = False
    first_dealer: int | None = None
    #: the next proposal each human seat may make (epoch seconds; 2-minute cooldown)
    propose_after: tuple[float, ...] = ()

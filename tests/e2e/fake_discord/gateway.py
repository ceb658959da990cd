"""The fake gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

Several sessions at once, one per shard (IDENTIFY ``"shard": [id, count]``; none means
``[0, 1]``), as for a sharded bot run by one or several processes: a server's events go to
the session of shard ``(guild_id >> 22) % count``, DM events to shard 0's. A new IDENTIFY for
a shard replaces that shard's previous session (one bot).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fake_discord.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    9,
    10,
    11,
)
HEARTBEAT_INTERVAL_MS = 41250
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
MESSAGE_CONTENT = 1 << 15
DIRECT_MESSAGES = 1 << 12


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that gets server ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass
class GatewaySession:
    """One identified gateway session (one bot process connection)."""

    session_id: str
    intents: int
    ws: web.WebSocketResponse | None
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    identify_payload: dict[str, Any] = field(default_factory=dict)
    #: (shard id, shard count) from IDENTIFY
    shard: tuple[int, int] = (0, 1)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of server ``guild_id`` (None: DMs)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id

    async def send(self, event: str, data: Any) -> None:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        if self.ws is not None and not self.ws.closed:
            try:
                await self.ws.send_str(json.dumps(frame))
            except (ConnectionError, RuntimeError) as exc:
                log.debug("dispatch %s failed: %s", event, exc)


class Gateway:
    """All gateway connections of one fake Discord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        #: the latest session of each shard id
        self.shards: dict[int, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.connections = 0
        self.heartbeats = 0
        self._lock = asyncio.Lock()

    @property
    def current(self) -> GatewaySession | None:
        """Shard 0's session (the one that gets DMs), or else the lowest shard's."""
        if not self.shards:
            return None
        return self.shards.get(0) or self.shards[min(self.shards)]

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The latest session that gets server ``guild_id``'s events (None: DM events)."""
        for session in self.shards.values():
            if session.receives(guild_id):
                return session
        return None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        self.fake.gateway_queries.append(dict(request.query))
        session: GatewaySession | None = None
        await ws.send_str(
            json.dumps({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        data = json.loads(msg.data)
                    else:
                        break
                else:
                    data = json.loads(msg.data)
                op = data.get("op")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
                elif op == IDENTIFY:
                    session = await self._identify(ws, data.get("d") or {})
                elif op == RESUME:
                    session = await self._resume(ws, data.get("d") or {})
                else:
                    log.debug("gateway op %s ignored", op)
        finally:
            if session is not None:
                session.ws = None
                session.closed = True
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, d: dict[str, Any]
    ) -> GatewaySession | None:
        if d.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.fake.privileged_intents_allowed:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard = d.get("shard") or [0, 1]
        shard_id, count = int(shard[0]), int(shard[1])
        if not 0 <= shard_id < count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        self.identify_count += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            intents=intents,
            ws=ws,
            identify_payload=d,
            shard=(shard_id, count),
        )
        self.sessions[session.session_id] = session
        previous = self.shards.get(shard_id)
        if previous is not None:
            previous.closed = True
        self.shards[shard_id] = session
        fake = self.fake
        ours = session.receives(fake.guild_id)
        await session.send(
            "READY",
            {
                "v": 10,
                "user": fake.bot_user.payload(),
                "guilds": [{"id": str(fake.guild_id), "unavailable": True}] if ours else [],
                "session_id": session.session_id,
                "resume_gateway_url": fake.gateway_url,
                "application": {"id": str(fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": [shard_id, count],
            },
        )
        if ours:
            await session.send("GUILD_CREATE", fake.guild_create_payload(intents))
        fake.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or d.get("token") != self.fake.token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        self.resume_count += 1
        session.ws = ws
        session.closed = False
        self.shards[session.shard[0]] = session
        seq = int(d.get("seq") or 0)
        for frame in [f for f in session.sent if f["s"] > seq]:
            await ws.send_str(json.dumps(frame))
        await session.send("RESUMED", {})
        self.fake.notify()
        return session

    async def dispatch(self, event: str, data: Any, *, intent: int | None = None) -> bool:
        """Send an event to the session of its server's shard (DM events: shard 0's);
        ``False`` if no bot is connected on that shard."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        session = self.session_for(int(guild) if guild else None)
        if session is None or session.closed or session.ws is None:
            return False
        if intent is not None and not session.intents & intent:
            return True
        await session.send(event, data)
        return True

    async def close_all(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()

    async def request_reconnect(self) -> None:
        """Ask the connected client to reconnect (op 7); it will RESUME."""
        session = self.current
        if session is not None and session.ws is not None:
            await session.ws.send_str(json.dumps({"op": RECONNECT, "d": None}))

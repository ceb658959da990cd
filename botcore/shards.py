"""Discord gateway shards: which process serves which server's games.

Discord splits a bot's servers over ``shard_count`` gateway connections by the server id:
shard ``(guild_id >> 22) % shard_count`` gets that server's events, and every DM event
arrives on shard 0. A process running some shards (``SHARD_IDS``) resumes, after a restart,
only the games of the servers on its shards; any process still serves a press for any game
(the database decides, :mod:`services.cluster`), so a DM button on shard 0 works for a game
whose server is on another shard.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: a Discord id's low 22 bits are worker, process and increment; the rest is its time
SNOWFLAKE_TIME_SHIFT = 22


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives the events of server ``guild_id`` (Discord's formula)."""
    if shard_count < 1:
        raise ValueError(f"shard_count must be at least 1, not {shard_count}")
    return (guild_id >> SNOWFLAKE_TIME_SHIFT) % shard_count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards one process runs, out of ``count``."""

    count: int
    ids: frozenset[int]

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> ShardSet:
        """``ids`` of ``count`` shards (all of them when ``ids`` is None or empty)."""
        chosen = frozenset(ids or range(count))
        wrong = sorted(i for i in chosen if not 0 <= i < count)
        if wrong:
            raise ValueError(f"shard ids {wrong} are not among the {count} shards")
        return cls(count, chosen)

    def serves_guild(self, guild_id: int) -> bool:
        """Whether this process receives server ``guild_id``'s events (and so resumes its
        games)."""
        return shard_of(guild_id, self.count) in self.ids

    @property
    def serves_dms(self) -> bool:
        """Whether DM events reach this process (they all arrive on shard 0)."""
        return 0 in self.ids

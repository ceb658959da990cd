"""The Bot class: intents, extensions, command sync, and the composition root. No game
logic here.

:meth:`MahjongBot.setup_hook` builds the store, the services and their Discord delivery once,
from the settings, before any cog loads; the cogs reach them as the bot's typed attributes
(:func:`bot_of` turns an interaction's ``client`` into the bot). :meth:`MahjongBot.close`
closes them in the reverse order once the cogs are unloaded, before it disconnects.

:func:`make_bot` picks the class: with ``SHARD_COUNT`` set, :class:`ShardedMahjongBot` runs
discord.py's ``AutoShardedBot`` on the process's shards (``SHARD_IDS``). On PostgreSQL the game
service shares the database with any other process (:mod:`services.cluster`): a press for a
game another process holds is applied here (DM presses all arrive on shard 0), deadlines fire
once, and changes made elsewhere are heard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import discord
from discord.ext import commands

from botcore.http_buckets import amortise_bucket_sweep
from botcore.invite import invite_url
from botcore.request_budget import RequestBudget, budget_trace, request_budget
from botcore.settings import Settings
from botcore.shards import ShardSet
from botcore.translator import CatalogueTranslator
from cogs.delivery import pictures
from cogs.delivery.discord_delivery import DiscordDelivery
from db.store import Store
from services.engine_adapter import default_engine
from services.game import GameService
from services.records import RecordService
from services.replay import ReplayService
from services.stats import StatsService

log = logging.getLogger(__name__)

#: seconds a stop waits for the interactions being handled (a command's reply, a press's
#: commit and its bookkeeping writes) before the store closes under them
HANDLER_GRACE = 10.0
#: names discord.py gives the tasks that run app commands, buttons, selects and modals
_HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: interaction")


def _handler_tasks() -> list[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current
        and not task.done()
        and task.get_name().startswith(_HANDLER_TASKS)
        and not task.get_name().startswith("discord-ui-view-timeout")
    ]


async def finish_handlers(grace: float) -> int:
    """Wait (at most ``grace`` seconds) for the interaction handlers running now: a stop
    must not close the store under a command that already answered and still writes (its
    message id, names…). Returns how many were still running after the wait."""
    running = _handler_tasks()
    if not running:
        return 0
    log.info("Waiting for %d interaction(s) being handled", len(running))
    _, pending = await asyncio.wait(running, timeout=grace)
    if pending:
        log.warning("%d interaction(s) still running after %.0f s; closing", len(pending), grace)
    return len(pending)


#: Extensions loaded at start-up, in order. Game cogs add their module here.
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "cogs.group",
    "cogs.errors",
    "cogs.meta",
    "cogs.game.commands",
    "cogs.stats.commands",
    "cogs.replay.commands",
    "cogs.desk.commands",
    "cogs.help.commands",
)


def bot_intents() -> discord.Intents:
    """Only the ``guilds`` intent (non-privileged: no members, no message content).

    The bot reads no messages — everything it is asked comes as interactions (slash
    commands, buttons), which need no intent — so the message intents (guild and DM
    messages) stay off: with them, Discord would send back a gateway event for every message
    the bot itself sends, edits or deletes (hand DMs, tables, alerts), which discord.py
    would parse into a model nobody reads — a large share of the bot's CPU per press."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class MahjongBot(commands.Bot):
    """The bot: builds the store and the services, loads the cogs and syncs the
    ``/mahjong`` commands in ``setup_hook``.

    The attributes below exist once ``setup_hook`` ran (every cog loads after that)."""

    #: the database (:class:`db.store.Store`), shared by every service
    store: Store
    #: the game service (lobby, play, session, timers) and its Discord delivery
    game_service: GameService
    game_delivery: DiscordDelivery
    #: leaderboards, stats, history, seasons
    stats_service: StatsService
    #: hand replays and exports
    replay_service: ReplayService
    #: the scoring desk's reported results (报分)
    record_service: RecordService

    #: the shards this process runs (None: one unsharded connection)
    shard_set: ShardSet | None = None
    #: Discord's global request limit kept by the bot (``DISCORD_REQUESTS_PER_SECOND``;
    #: None: not kept): every REST request but the interaction answers waits for a slot
    request_budget: RequestBudget | None = None

    def __init__(
        self,
        settings: Settings,
        extensions: Sequence[str] = DEFAULT_EXTENSIONS,
        **options: Any,
    ) -> None:
        budget = request_budget(settings.discord_requests_per_second)
        if budget is not None:
            options.setdefault("http_trace", budget_trace(budget))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.request_budget = budget
        # discord.py looks at every rate-limit bucket per new one: swept amortised instead
        amortise_bucket_sweep(self.http)
        self._invite_logged = False
        #: what ``setup_hook`` opened, closed by ``close`` in the reverse order
        self._opened = contextlib.AsyncExitStack()
        # In order, each once (an extension listed in both places loads once).
        self.extensions_to_load: list[str] = list(
            dict.fromkeys([*extensions, *settings.extension_list])
        )

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        await self.compose()
        for name in self.extensions_to_load:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        await self.sync_commands()

    async def compose(self) -> None:
        """The composition root: open the store and build every service once, from the
        settings (the picture workers start here too)."""
        settings = self.settings
        timeout = settings.database_lock_timeout_seconds
        self.store = await Store.open(
            settings.database_url, busy_timeout=timeout, lock_timeout=timeout
        )
        self._opened.push_async_callback(self.store.close)
        pictures.ENABLED = settings.mahjong_pictures
        pictures.INLINE_WAIT = settings.picture_inline_wait_ms / 1000
        pictures.start_pool()  # the worker processes that render pictures off the event loop
        self._opened.push_async_callback(pictures.close_pool)
        delivery = DiscordDelivery(
            self,
            store=self.store,
            ephemeral_lifetime=settings.ephemeral_lifetime_seconds,
            alert_delay=settings.alert_delay_seconds,
            table_edits_per_second=settings.table_edits_per_second,
            channel_probe_seconds=settings.channel_probe_seconds,
        )
        service = GameService(
            self.store,
            default_engine(),
            delivery,
            turn_timeout=float(settings.turn_timeout_seconds),
            claim_timeout=float(settings.claim_timeout_seconds),
            ai_pace=settings.ai_pace_seconds,
            claim_hold=settings.claim_hold_seconds,
        )
        service.ready_timeout = float(settings.ready_timeout_seconds)
        service.vote_timeout = float(settings.vote_timeout_seconds)
        delivery.service = service
        # the table edits take what the players' requests leave of the budget
        delivery.tables.budget = self.request_budget
        self._opened.push_async_callback(delivery.close)
        self._opened.push_async_callback(service.close)
        self.game_service = service
        self.game_delivery = delivery
        self.stats_service = StatsService(self.store)
        self.replay_service = ReplayService(self.store)
        self.record_service = RecordService(
            self.store, default_expiry=timedelta(hours=settings.record_expiry_hours)
        )
        shards = self.shard_set
        if (
            shards is not None
            and len(shards.ids) < shards.count
            and self.store.dialect != "postgresql"
        ):
            log.warning(
                "This process runs shards %s of %d on %s: the processes of the other shards "
                "cannot share it (their servers' games and DM presses need one database); "
                "use PostgreSQL (docs/deploy.md)",
                sorted(shards.ids),
                shards.count,
                self.store.dialect,
            )
        if self.store.dialect == "postgresql":
            # other processes (shards, or the next version during a rolling deploy) may use
            # this database: versioned writes, deadlines fired once, changes heard
            await service.join_cluster()

    def serves_guild(self, guild_id: int) -> bool:
        """Whether this process receives server ``guild_id``'s events — and so resumes its
        games after a restart (every server when the bot is not sharded)."""
        return self.shard_set is None or self.shard_set.serves_guild(guild_id)

    async def close(self) -> None:
        """Let the presses and commands being handled finish (their writes are acknowledged
        actions), unload the cogs, close the services and the store, then disconnect: the
        services' last deliveries (queued before the stop) still reach Discord."""
        await finish_handlers(HANDLER_GRACE)
        for name in tuple(self.extensions):
            try:
                await self.unload_extension(name)
            except Exception:
                log.exception("could not unload extension %s", name)
        try:
            await self._opened.aclose()
        finally:
            await super().close()
            if self.request_budget is not None:
                await self.request_budget.close()

    async def sync_commands(self) -> None:
        """Sync app commands: to ``DEV_GUILD_ID`` if set (instant), else globally — in one
        process only (:func:`syncs_commands`)."""
        if not syncs_commands(self.settings):
            log.info("Command sync left to the process running shard 0 (SYNC_COMMANDS)")
            return
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d command(s) to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global command(s)", len(synced))

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "Bot ready: logged in as %s (id %s) in %d guild(s)",
            user,
            user.id if user else "?",
            len(self.guilds),
        )
        app_id = self.application_id or (user.id if user else None)
        if app_id is not None and not self._invite_logged:
            self._invite_logged = True
            log.info(
                "Invite the bot to a server (scopes bot + applications.commands, with the "
                "channel permissions it needs): %s",
                invite_url(app_id),
            )


class ShardedMahjongBot(MahjongBot, commands.AutoShardedBot):
    """The bot on some of its gateway shards (``SHARD_COUNT``, ``SHARD_IDS``): discord.py's
    ``AutoShardedBot`` running those shards in this process."""

    def __init__(self, settings: Settings, extensions: Sequence[str] = DEFAULT_EXTENSIONS) -> None:
        shards = settings.shards
        if shards is None or settings.shard_count is None:
            raise ValueError("a sharded bot needs SHARD_COUNT")
        super().__init__(
            settings, extensions, shard_count=settings.shard_count, shard_ids=list(shards)
        )
        self.shard_set = ShardSet.of(settings.shard_count, shards)

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("Shard %d of %d ready", shard_id, self.shard_count)


def syncs_commands(settings: Settings) -> bool:
    """Whether this process syncs the application commands at start: ``SYNC_COMMANDS``
    when set, else only the process that runs shard 0 (an unsharded bot is that process) —
    one sync per deploy however many processes start, not one per process."""
    if settings.sync_commands is not None:
        return settings.sync_commands
    shards = settings.shards
    return shards is None or 0 in shards


def make_bot(settings: Settings, extensions: Sequence[str] = DEFAULT_EXTENSIONS) -> MahjongBot:
    """The bot the settings ask for: sharded when ``SHARD_COUNT`` is set, else one
    connection."""
    if settings.shard_count is not None:
        return ShardedMahjongBot(settings, extensions)
    return MahjongBot(settings, extensions)


def bot_of(client: discord.Client) -> MahjongBot:
    """The bot behind an interaction (``interaction.client``), with its services."""
    if not isinstance(client, MahjongBot):
        raise TypeError(f"expected the MahjongBot, not {type(client).__name__}")
    return client

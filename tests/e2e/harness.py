"""Run ``bot.py`` as a real subprocess against the fake Discord (start, wait, kill, restart)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from .backends import is_sqlite, rows
from .fake_discord import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
BOT_SCRIPT = REPO_ROOT / "bot.py"
PLUGINS_DIR = Path(__file__).resolve().parent / "plugins"
READY_MARKER = "Bot ready:"
#: logged by a process that leaves the command sync to shard 0's (botcore.client.syncs_commands)
SYNC_LEFT_MARKER = "Command sync left to"
TRACEBACK_RX = re.compile(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n|\n)*.*$", re.M)

#: Settings the harness controls; inherited values are removed so a developer's shell or
#: ``.env`` can never point a test at the real Discord.
SETTING_NAMES = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "TURN_TIMEOUT_SECONDS",
    "CLAIM_TIMEOUT_SECONDS",
    "EXTRA_EXTENSIONS",
    "MAHJONG_PICTURES",
    "RECORD_EXPIRY_HOURS",
    "RECORD_SWEEP_SECONDS",
    "AI_PACE_SECONDS",
    "CLAIM_HOLD_SECONDS",
    "READY_TIMEOUT_SECONDS",
    "VOTE_TIMEOUT_SECONDS",
)


class BotProcess:
    """``sys.executable bot.py`` in ``workdir`` (no ``.env`` there), logs in ``workdir``.

    ``env`` adds or overrides environment variables (a ``None`` value removes one).
    ``database_url`` is the bot's database (``DATABASE_URL``; an ``env`` entry wins), by
    default the SQLite file ``workdir/mahjong.db``; it survives restarts.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        env: dict[str, str | None] | None = None,
        database_url: str | None = None,
    ) -> None:
        self.fake = fake
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.overrides = dict(env or {})
        self.database_url = (
            self.overrides.get("DATABASE_URL")
            or database_url
            or f"sqlite+aiosqlite:///{self.workdir / 'mahjong.db'}"
        )
        self.process: asyncio.subprocess.Process | None = None
        self.runs = 0
        self.log_paths: list[Path] = []
        self.allowed_tracebacks: list[re.Pattern[str]] = []
        #: Runs that did not exit within the grace time after SIGTERM (killed instead).
        self.unclean_stops: list[int] = []

    # --- database, environment and logs ---------------------------------------------------

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """What ``sql`` (``?`` placeholders) returns from the bot's database, on SQLite or
        PostgreSQL alike (see :func:`backends.rows` for how values come)."""
        return rows(self.database_url, sql, *params)

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgres"``: where the bot keeps its games."""
        return "sqlite" if is_sqlite(self.database_url) else "postgres"

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k.upper() not in SETTING_NAMES}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            DATABASE_URL=self.database_url,
            LOG_LEVEL="INFO",
            AI_PACE_SECONDS="0",  # AI moves at once (a test sets a pace to see it)
            # discards' windows not held (test_e2e_claim_cadence plays with the hold on)
            CLAIM_HOLD_SECONDS="0",
            PYTHONUNBUFFERED="1",
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONPATH=os.pathsep.join([str(REPO_ROOT), str(PLUGINS_DIR)]),
        )
        for key, value in self.overrides.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        return env

    @property
    def log_path(self) -> Path:
        """The log (stdout + stderr) of the current/last run."""
        return self.log_paths[-1]

    @property
    def log(self) -> str:
        """The log of the current/last run."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_paths else ""

    @property
    def all_logs(self) -> str:
        """Logs of every run so far, in order."""
        return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in self.log_paths)

    def allow_traceback(self, pattern: str) -> None:
        """Do not fail teardown for tracebacks matching ``pattern`` (a test's deliberate error)."""
        self.allowed_tracebacks.append(re.compile(pattern))

    def unexpected_tracebacks(self) -> list[str]:
        found = TRACEBACK_RX.findall(self.all_logs)
        return [tb for tb in found if not any(p.search(tb) for p in self.allowed_tracebacks)]

    # --- process control ----------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def start(self) -> None:
        """Start the process (does not wait; see :meth:`wait_ready`)."""
        assert not self.running, "bot already running"
        self.runs += 1
        path = self.workdir / f"bot-run{self.runs}.log"
        self.log_paths.append(path)
        self._identify_before = self.fake.gateway.identify_count
        self._syncs_before = len(self.fake.command_syncs)
        with path.open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(BOT_SCRIPT),
                cwd=self.workdir,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )

    async def wait_ready(self, timeout: float = 20.0) -> None:
        """Wait until this run synced its commands (or left that to shard 0's process),
        identified, and logged ``Bot ready`` (``timeout`` is scaled by ``fake.timeout_scale``)."""

        def ready() -> bool:
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(
                    f"bot exited with code {self.process.returncode} before ready:\n{self.log}"
                )
            log = self.log
            return (
                (len(self.fake.command_syncs) > self._syncs_before or SYNC_LEFT_MARKER in log)
                and self.fake.gateway.identify_count > self._identify_before
                and READY_MARKER in log
            )

        try:
            await self.fake.wait_for(ready, timeout, what="the bot to become ready")
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}\n--- bot log ---\n{self.log}") from None

    async def start_ready(self, timeout: float = 20.0) -> None:
        await self.start()
        await self.wait_ready(timeout)

    async def wait_exit(self, timeout: float = 15.0) -> int:
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), self.fake.scaled(timeout))

    async def kill(self) -> None:
        """SIGKILL (like ``kill -9``) and wait for the process to be gone."""
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL if it does not exit within ``timeout`` (noted in
        :attr:`unclean_stops`; the teardown warns about it)."""
        if not self.running:
            return self.process.returncode if self.process else None
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.unclean_stops.append(self.runs)
            await self.kill()
            return self.process.returncode

    async def restart(self, timeout: float = 20.0) -> None:
        """SIGKILL the bot, start it again, wait until it is ready."""
        await self.kill()
        await self.start_ready(timeout)

"""The bot's event loop (:mod:`botcore.event_loop`): uvloop when installed and wanted."""

from __future__ import annotations

import asyncio

import pytest

from botcore.event_loop import loop_factory, run, uvloop_installed
from botcore.settings import Settings


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_asyncio_s_loop_when_uvloop_is_not_wanted() -> None:
    assert loop_factory(False) is None
    assert run(_loop_module(), use_uvloop=False).startswith("asyncio")


@pytest.mark.skipif(not uvloop_installed(), reason="uvloop is not installed on this platform")
def test_uvloop_runs_the_bot_when_installed() -> None:
    factory = loop_factory(True)
    assert factory is not None
    assert run(_loop_module(), use_uvloop=True).startswith("uvloop")


def test_uvloop_is_wanted_unless_the_setting_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Settings(_env_file=None).uvloop is True  # type: ignore[call-arg]
    monkeypatch.setenv("UVLOOP", "false")
    assert Settings(_env_file=None).uvloop is False  # type: ignore[call-arg]


def test_the_result_of_the_main_coroutine_is_returned() -> None:
    async def main() -> int:
        await asyncio.sleep(0)
        return 7

    assert run(main()) == 7

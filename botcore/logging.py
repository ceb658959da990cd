"""Logging set up once for the bot process, with the token redacted from every line."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterable
from types import TracebackType

REDACTED = "[REDACTED]"
_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
_configured = False


class RedactingFormatter(logging.Formatter):
    """A formatter that replaces every secret in the final text (message, traceback, stack)."""

    def __init__(self, secrets: Iterable[str], fmt: str = _FORMAT) -> None:
        super().__init__(fmt)
        self._secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self._secrets)


class RedactingFilter(logging.Filter):
    """Redacts secrets from a record's message, for handlers that use their own formatter."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message, self._secrets)
        if clean != message:
            record.msg = clean
            record.args = None
        return True


def redact(text: str, secrets: Iterable[str]) -> str:
    """Return ``text`` with every secret replaced by ``[REDACTED]``."""
    for secret in secrets:
        if secret and secret in text:
            text = text.replace(secret, REDACTED)
    return text


def setup_logging(level: str = "INFO", *, secrets: Iterable[str] = ()) -> None:
    """Configure the root logger once: one stderr handler, token-redacting, at ``level``.

    Uncaught exceptions (main thread and other threads) and warnings go through logging
    too, so they are redacted as well. Calling it again only updates level and secrets.
    """
    global _configured
    secrets = [s for s in secrets if s]
    root = logging.getLogger()
    root.setLevel(level)
    if _configured:
        for handler in root.handlers:
            if isinstance(handler.formatter, RedactingFormatter):
                handler.setFormatter(RedactingFormatter(secrets))
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(secrets))
    handler.addFilter(RedactingFilter(secrets))
    root.handlers[:] = [handler]
    logging.captureWarnings(True)

    def _excepthook(
        exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
    ) -> None:
        logging.getLogger("uncaught").critical("Uncaught exception", exc_info=(exc_type, exc, tb))

    def _thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        logging.getLogger("uncaught").critical(
            "Uncaught exception in thread %s",
            getattr(args.thread, "name", "?"),
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )

    sys.excepthook = _excepthook
    threading.excepthook = _thread_hook
    _configured = True

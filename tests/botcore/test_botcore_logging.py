"""Token redaction in log output, including tracebacks."""

from __future__ import annotations

import io
import logging

from botcore.logging import REDACTED, RedactingFilter, RedactingFormatter, redact

TOKEN = "MTE2.secret-token.value"


def make_logger(name: str) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter([TOKEN]))
    handler.addFilter(RedactingFilter([TOKEN]))
    logger = logging.getLogger(name)
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, stream


def test_redact() -> None:
    assert redact(f"a {TOKEN} b {TOKEN}", [TOKEN]) == f"a {REDACTED} b {REDACTED}"
    assert redact("nothing here", [TOKEN]) == "nothing here"


def test_message_args_redacted() -> None:
    logger, stream = make_logger("t.args")
    logger.info("token is %s", TOKEN)
    out = stream.getvalue()
    assert TOKEN not in out and REDACTED in out


def test_traceback_redacted() -> None:
    logger, stream = make_logger("t.exc")
    try:
        raise RuntimeError(f"bad header Bot {TOKEN}")
    except RuntimeError:
        logger.exception("failed")
    out = stream.getvalue()
    assert "RuntimeError" in out and TOKEN not in out and REDACTED in out


def test_short_secrets_ignored() -> None:
    # a 1-3 character "secret" would redact half the log; it is ignored
    assert (
        RedactingFormatter(["a"])
        .format(logging.LogRecord("x", logging.INFO, __file__, 1, "a cat", None, None))
        .endswith("a cat")
    )

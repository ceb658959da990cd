"""Background work whose failure is logged, never raised: a timer, a sweep, a refresh — a task
nobody awaits must not die silently, and one failed step must not end the loop it runs in
(the cluster's loops themselves are restarted if they ever end,
:meth:`services.cluster.Cluster._keep_running`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any


async def logged(work: Awaitable[Any], logger: logging.Logger, message: str, *args: Any) -> bool:
    """Await ``work``; an error it raises is logged on ``logger`` with its traceback
    (``message % args``) and not raised. Cancellation goes through. True when ``work``
    finished without an error."""
    try:
        await work
    except Exception:
        logger.exception(message, *args)
        return False
    return True

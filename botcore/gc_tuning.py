"""The garbage collector tuned for a long-running bot.

Every press builds thousands of short-lived container objects (engine states, views, JSON,
discord.py models). With CPython's default thresholds (700 allocations per young
collection) the collector runs hundreds of times a second under load, and each older
collection walks every object the process holds — the engine tables, the caches, the games
in memory — although none of them is garbage. Measured on ``benchmarks.service_bench`` flat out,
collection was about a fifth of the CPU; with the thresholds below, a quarter of
that. The objects alive once the bot has started are moved out of the collector's sight
(:func:`gc.freeze`): they live as long as the process.

Reference counting still frees almost everything at once; only cycles wait for a
collection, and the collector still runs (``GC_TUNING=false`` keeps CPython's defaults).
"""

from __future__ import annotations

import gc

#: young collections every 20,000 net allocations (default 700); the middle and old
#: generations after 20 and 50 of the one below (defaults 10 and 10)
THRESHOLDS = (20_000, 20, 50)


def tune_gc() -> tuple[int, int, int]:
    """Collect once, freeze what is alive now (start-up objects), raise the thresholds;
    returns the thresholds set."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return THRESHOLDS

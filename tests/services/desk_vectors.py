"""The RULES §6 scoring vectors, and how a vector line reads as ``/mahjong score`` options."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

VECTORS_ENV = "MAHJONG_VECTORS_DIR"


def vectors_dir() -> Path:
    """``$MAHJONG_VECTORS_DIR``, else ``../shared/vectors`` next to the repository."""
    env = os.environ.get(VECTORS_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "vectors"


def load_vectors() -> list[dict[str, Any]]:
    """Every line of every ``*.jsonl`` file; fails (does not skip) when there are none."""
    folder = vectors_dir()
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no scoring vectors (*.jsonl) in {folder}; set {VECTORS_ENV}")
    out = []
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                obj = json.loads(line)
                obj.setdefault("id", f"{path.name}:{n}")
                out.append(obj)
    return out


def option_text(options: dict[str, Any] | None) -> str | None:
    """``{"scoring": "xingchen", "discard_win": True}`` → ``"scoring=xingchen discard_win=true"``."""
    if not options:
        return None
    parts = []
    for key, value in options.items():
        shown = (
            "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        )
        parts.append(f"{key}={shown}")
    return " ".join(parts)


def slash_options(vector: dict[str, Any]) -> dict[str, Any]:
    """The ``/mahjong score`` options that ask what ``vector`` asks."""
    opts: dict[str, Any] = {"hand": vector["hand"], "variant": vector["variant"]}
    opts["win"] = vector.get("win") or "self"
    if vector.get("bao"):
        opts["bao"] = vector["bao"]
    for name in ("flown", "kong_draws", "flowers"):
        if vector.get(name):
            opts[name] = vector[name]
    text = option_text(vector.get("options"))
    if text:
        opts["options"] = text
    for flag in vector.get("flags") or []:
        opts[flag] = True
    return opts

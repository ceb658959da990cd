"""Checks the real Discord makes, so a test fails where Discord would answer 400."""

from __future__ import annotations

import re
from typing import Any

NAME_RX = re.compile(r"^[-_\w]{1,32}$")
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
IS_COMPONENTS_V2 = 1 << 15


def _name_ok(name: Any) -> bool:
    return isinstance(name, str) and bool(NAME_RX.match(name)) and name == name.lower()


def _check_command(cmd: dict[str, Any], where: str, errors: dict[str, str], depth: int = 0) -> None:
    name = cmd.get("name")
    if not _name_ok(name):
        errors[f"{where}.name"] = (
            f"invalid command name {name!r} (1-32 lowercase letters/digits/-_)"
        )
    for loc, value in (cmd.get("name_localizations") or {}).items():
        if not _name_ok(value):
            errors[f"{where}.name_localizations.{loc}"] = f"invalid localized name {value!r}"
    is_chat = cmd.get("type", 1) == 1
    desc = cmd.get("description", "")
    if is_chat and not (1 <= len(desc or "") <= 100):
        errors[f"{where}.description"] = "description must be 1-100 characters"
    for loc, value in (cmd.get("description_localizations") or {}).items():
        if not (1 <= len(value or "") <= 100):
            errors[f"{where}.description_localizations.{loc}"] = "1-100 characters"
    options = cmd.get("options") or []
    if len(options) > 25:
        errors[f"{where}.options"] = "at most 25 options"
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        errors[f"{where}.options"] = f"duplicate option names {names}"
    seen_optional = False
    for i, opt in enumerate(options):
        here = f"{where}.options.{i}"
        kind = opt.get("type")
        if kind in (1, 2):
            if depth >= 2 or (kind == 2 and depth >= 1):
                errors[here] = "subcommands nest at most group → subcommand"
            _check_command({**opt, "type": 1}, here, errors, depth + 1)
            continue
        _check_command(
            {
                "name": opt.get("name"),
                "description": opt.get("description"),
                "name_localizations": opt.get("name_localizations"),
                "description_localizations": opt.get("description_localizations"),
            },
            here,
            errors,
            depth + 1,
        )
        if opt.get("required"):
            if seen_optional:
                errors[here] = "required options must come before optional ones"
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            errors[f"{here}.choices"] = "at most 25 choices"


def commands(payload: Any) -> dict[str, str] | None:
    """Validate a bulk-overwrite command list; a dict of errors or ``None``."""
    if not isinstance(payload, list):
        return {"_": "expected a list of commands"}
    if len(payload) > 100:
        return {"_": "at most 100 commands"}
    errors: dict[str, str] = {}
    for i, cmd in enumerate(payload):
        _check_command(cmd, str(i), errors)
    return errors or None


def _components(components: list[dict[str, Any]], v2: bool) -> str | None:
    if not v2 and len(components) > 5:
        return "at most 5 action rows"
    ids: list[str] = []
    stack = list(components)
    while stack:
        comp = stack.pop()
        kind = comp.get("type")
        children = comp.get("components") or []
        if kind == 1:
            buttons = [c for c in children if c.get("type") == 2]
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if len(children) > 5 or (selects and len(children) > 1):
                return "an action row holds at most 5 buttons or 1 select"
            del buttons
        if "custom_id" in comp:
            cid = comp["custom_id"]
            if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
                return f"custom_id must be 1-100 characters: {cid!r}"
            ids.append(cid)
        if kind == 2:
            if len(comp.get("label") or "") > 80:
                return "button label at most 80 characters"
            if comp.get("style") != 5 and comp.get("style") != 6 and "custom_id" not in comp:
                return "a button needs a custom_id"
        if kind == 3 and not 1 <= len(comp.get("options") or []) <= 25:
            return "a select menu has 1-25 options"
        stack.extend(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            stack.append(accessory)
    if len(ids) != len(set(ids)):
        return f"duplicate custom_id in one message: {sorted(ids)}"
    return None


def message(
    data: dict[str, Any], files: dict[str, bytes], *, creating: bool
) -> tuple[int, str, Any] | None:
    """Validate a message body; ``(code, message, errors)`` or ``None``."""
    content = data.get("content") or ""
    if len(content) > MAX_CONTENT:
        return 50035, "Invalid Form Body", {"content": f"Must be {MAX_CONTENT} or fewer in length."}
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        return 50035, "Invalid Form Body", {"embeds": "at most 10 embeds"}
    total = 0
    for i, embed in enumerate(embeds):
        title, desc = embed.get("title") or "", embed.get("description") or ""
        if len(title) > 256 or len(desc) > 4096:
            return 50035, "Invalid Form Body", {f"embeds.{i}": "title ≤ 256, description ≤ 4096"}
        fields = embed.get("fields") or []
        if len(fields) > 25:
            return 50035, "Invalid Form Body", {f"embeds.{i}.fields": "at most 25 fields"}
        total += len(title) + len(desc)
        for f in fields:
            if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                return (
                    50035,
                    "Invalid Form Body",
                    {f"embeds.{i}.fields": "name ≤ 256, value ≤ 1024"},
                )
            total += len(f.get("name") or "") + len(f.get("value") or "")
        total += len((embed.get("footer") or {}).get("text") or "")
        total += len((embed.get("author") or {}).get("name") or "")
    if total > MAX_EMBED_TOTAL:
        return 50035, "Invalid Form Body", {"embeds": "embeds total at most 6000 characters"}
    v2 = bool(int(data.get("flags") or 0) & IS_COMPONENTS_V2)
    problem = _components(data.get("components") or [], v2)
    if problem:
        return 50035, "Invalid Form Body", {"components": problem}
    if creating and not (
        content
        or embeds
        or data.get("components")
        or data.get("sticker_ids")
        or data.get("poll")
        or any(k.startswith("files[") and not k.endswith(":filename") for k in files)
    ):
        return 50006, "Cannot send an empty message", None
    return None


def modal(data: dict[str, Any]) -> dict[str, str] | None:
    """Validate a modal (callback type 9)."""
    errors = {}
    if not 1 <= len(data.get("title") or "") <= 45:
        errors["title"] = "modal title 1-45 characters"
    if not data.get("custom_id"):
        errors["custom_id"] = "modal needs a custom_id"
    if not 1 <= len(data.get("components") or []) <= 5:
        errors["components"] = "modal has 1-5 rows"
    return errors or None

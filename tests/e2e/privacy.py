"""Check that concealed information (hands, the wall) never reached someone who may not see it.

Generic: callers pass the strings that must stay hidden (e.g. each concealed hand as the
bot would render it). Every version of every message is scanned (edits and deleted messages
included, since they were shown once): content, embeds, component texts and custom_ids,
attachment file names, and the bytes of text-like attachments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .fake_discord import FakeDiscord, FakeMessage, FakeUser

TEXT_KEYS = ("content", "label", "placeholder", "description", "title", "value", "name", "text")


@dataclass(frozen=True)
class Leak:
    """One forbidden string found in a message someone could see."""

    secret: str
    message_id: int
    channel_id: int
    where: str
    audience: str

    def __str__(self) -> str:
        return (
            f"{self.secret!r} found in {self.where} of message {self.message_id} "
            f"(channel {self.channel_id}, seen by {self.audience})"
        )


def _texts(obj: Any, path: str) -> Iterable[tuple[str, str]]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _texts(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _texts(value, f"{path}[{i}]")
    elif isinstance(obj, str):
        yield path, obj


def message_texts(msg: FakeMessage, *, include_custom_ids: bool = True) -> list[tuple[str, str]]:
    """(where, text) for every string a viewer could obtain from any version of ``msg``."""
    out: list[tuple[str, str]] = []
    for n, version in enumerate(msg.versions()):
        tag = f"v{n}"
        out.append((f"{tag}.content", version["content"]))
        for where, text in _texts(version["embeds"], f"{tag}.embeds"):
            out.append((where, text))
        for where, text in _texts(version["components"], f"{tag}.components"):
            leaf = where.rsplit(".", 1)[-1]
            if leaf == "custom_id" and not include_custom_ids:
                continue
            if leaf in (*TEXT_KEYS, "custom_id", "url", "emoji"):
                out.append((where, text))
        for name in version["attachments"]:
            out.append((f"{tag}.attachment-name", name))
    for att in msg.attachments:
        if att.content_type is None or att.content_type.startswith(("text/", "application/json")):
            out.append((f"attachment:{att.filename}", att.data.decode("utf-8", errors="ignore")))
    return out


def audience_of(fake: FakeDiscord, msg: FakeMessage) -> FakeUser | None:
    """The one user who can see ``msg`` (DM recipient, ephemeral target), or ``None`` = everyone."""
    if msg.visible_to is not None:
        return msg.visible_to
    channel = fake.channels.get(msg.channel_id)
    if channel is not None and channel.is_dm:
        return channel.recipient
    return None


def find_leaks(
    fake: FakeDiscord,
    secrets: Iterable[str],
    *,
    owner: FakeUser | None = None,
    include_custom_ids: bool = True,
) -> list[Leak]:
    """Every place a secret appears where someone other than ``owner`` could see it.

    With ``owner=None`` only public messages (guild channels, not ephemeral) are scanned:
    the secret must never be shown to the table. With an owner, messages visible only to
    the owner (their DMs and ephemeral replies) are allowed; everything else is a leak.
    """
    wanted = [s for s in secrets if s]
    leaks: list[Leak] = []
    for msg in fake.all_messages(include_deleted=True):
        viewer = audience_of(fake, msg)
        if viewer is not None and (owner is None or viewer.id == owner.id):
            continue
        audience = "everyone in the channel" if viewer is None else viewer.name
        for where, text in message_texts(msg, include_custom_ids=include_custom_ids):
            for secret in wanted:
                if secret in text:
                    leaks.append(Leak(secret, msg.id, msg.channel_id, where, audience))
    return leaks


def assert_no_concealed_leak(
    fake: FakeDiscord,
    secrets: Iterable[str],
    *,
    owner: FakeUser | None = None,
    include_custom_ids: bool = True,
) -> None:
    """Fail if any ``secrets`` string was shown outside what ``owner`` alone may see.

    ``assert_no_concealed_leak(fake, ["1m1m2m3m…"])`` — never in a public message;
    ``assert_no_concealed_leak(fake, alice_hand, owner=alice)`` — only in Alice's DMs/ephemerals.
    """
    secrets = list(secrets)
    leaks = find_leaks(fake, secrets, owner=owner, include_custom_ids=include_custom_ids)
    if leaks:
        lines = "\n".join(f"  - {leak}" for leak in leaks[:20])
        more = f"\n  … and {len(leaks) - 20} more" if len(leaks) > 20 else ""
        raise AssertionError(f"concealed information leaked ({len(leaks)}):\n{lines}{more}")


def assert_hands_private(
    fake: FakeDiscord, hands: Mapping[FakeUser, Iterable[str]], **kwargs: Any
) -> None:
    """Each user's secrets may appear only in messages that user alone sees."""
    for user, secrets in hands.items():
        assert_no_concealed_leak(fake, secrets, owner=user, **kwargs)

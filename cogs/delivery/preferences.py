"""The stored choices the Discord delivery speaks by: each server's language for public
messages, and each player's language, pictures and alerts for their private ones.

Read once from the store (a failure is logged, the default used) and kept; a command that
changes a choice saves it in the store and tells :class:`Preferences` at once.
"""

from __future__ import annotations

import logging

from cogs.game.text import lang_of
from db.store import Store
from i18n import BOTH, LOCALES

log = logging.getLogger(__name__)

#: ``/mahjong alerts`` choices: turns and claims, claims only, none.
ALERT_MODES = ("on", "claims", "off")


class Preferences:
    """Per-server language and per-player language / pictures / alerts (defaults without a
    store: ``zh``, pictures on, alerts ``on``)."""

    def __init__(self, store: Store | None) -> None:
        #: the servers' and players' stored choices; without a store every choice is default
        self.store = store
        self._guild_lang: dict[int, str] = {}
        self._user_lang: dict[int, str] = {}
        #: the language a player chose for a game's private texts (None: the server's)
        self._user_choice: dict[int, str | None] = {}
        self._user_images: dict[int, bool] = {}
        self._user_alerts: dict[int, str] = {}

    # ------------------------------------------------------------------ the server

    async def lang_for_guild(self, guild_id: int) -> str:
        """The server's language for public messages: ``zh`` unless set to ``zh-TW``, ``en``
        or ``zh+en``."""
        if guild_id not in self._guild_lang:
            lang = "zh"
            if self.store is not None:
                try:
                    lang = (await self.store.guilds.settings(guild_id)).language or "zh"
                except Exception:
                    log.exception("could not read the language of guild %s", guild_id)
            self._guild_lang[guild_id] = lang if lang in (*LOCALES, BOTH) else "zh"
        return self._guild_lang[guild_id]

    def forget_guild_language(self, guild_id: int) -> None:
        """The server changed its language: read it again next time."""
        self._guild_lang.pop(guild_id, None)

    # ------------------------------------------------------------------ the player

    def note_user(self, user_id: int, locale: object) -> None:
        """The user's Discord language, seen on their latest interaction."""
        self._user_lang[user_id] = lang_of(locale)

    async def lang_for_user(self, user_id: int) -> str:
        """The player's Discord language (their latest interaction's, else stored), else zh."""
        await self._load_player(user_id)
        return self._user_lang[user_id]

    async def lang_for_player(self, user_id: int, guild_id: int) -> str:
        """The language of a game's private texts for a player (hand DM, alerts): the one
        they chose (``/mahjong language``), else the server's, so a table reads in one
        language; a server set to both (``zh+en``) leaves each player their Discord one."""
        await self._load_player(user_id)
        chosen = self._user_choice.get(user_id)
        if chosen:
            return chosen
        server = await self.lang_for_guild(guild_id)
        return self._user_lang[user_id] if server == BOTH else server

    def set_user_language(self, user_id: int, language: str | None) -> None:
        """Remember a player's language choice (already saved in the store); None: follow
        the server again."""
        self._user_choice[user_id] = language if language in LOCALES else None

    async def images_for_user(self, user_id: int) -> bool:
        """Whether a player's private messages carry pictures (``/mahjong pictures``)."""
        await self._load_player(user_id)
        return self._user_images[user_id]

    def set_user_images(self, user_id: int, on: bool) -> None:
        """Remember a player's picture preference (already saved in the store)."""
        self._user_images[user_id] = on

    def set_user_alerts(self, user_id: int, mode: str) -> None:
        """Remember a player's alert choice (already saved in the store)."""
        self._user_alerts[user_id] = mode if mode in ALERT_MODES else "on"

    async def alerts_for_user(self, user_id: int) -> str:
        """The player's alert choice (``on`` unless they chose otherwise)."""
        if user_id not in self._user_alerts:
            mode = "on"
            if self.store is not None:
                try:
                    player = await self.store.players.get(user_id)
                    if player is not None:
                        mode = getattr(player, "alerts", "on") or "on"
                except Exception:
                    log.exception("could not read the alerts choice of user %s", user_id)
            self._user_alerts.setdefault(user_id, mode if mode in ALERT_MODES else "on")
        return self._user_alerts[user_id]

    async def _load_player(self, user_id: int) -> None:
        """Read a player's stored locale, language choice and picture preference once."""
        if (
            user_id in self._user_lang
            and user_id in self._user_images
            and user_id in self._user_choice
        ):
            return
        lang, images, chosen = "zh", True, None
        if self.store is not None:
            try:
                player = await self.store.players.get(user_id)
                if player is not None:
                    lang = lang_of(player.locale) if player.locale else lang
                    images = player.prefers_images
                    chosen = player.language
            except Exception:
                log.exception("could not read the preferences of user %s", user_id)
        self._user_lang.setdefault(user_id, lang)
        self._user_images.setdefault(user_id, images)
        self._user_choice.setdefault(user_id, chosen)

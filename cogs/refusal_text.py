"""A refusal in the user's language: the one translation of every :class:`Refusal`.

Lives apart from :mod:`cogs.errors` (an extension, executed afresh by ``load_extension``) so
views and commands can import it freely.
"""

from __future__ import annotations

import logging

from engine.refusal import Reason, Refusal, Words
from i18n import t

log = logging.getLogger(__name__)


def refusal_text(error: Refusal, lang: str) -> str:
    """A refusal in ``lang``: its key's sentence, every :class:`Reason` argument (the
    engine's explanations) translated too."""
    args = {name: translated(value, lang) for name, value in error.message_args().items()}
    return t(error.key, lang, **args)


def translated(value: object, lang: str) -> object:
    """A refusal's argument in ``lang``: a :class:`Reason` by its key (its English when the
    catalogues lack it), :class:`Words` joined the reader's way, anything else as it is."""
    if isinstance(value, Words):
        return t("errors.word_separator", lang).join(str(translated(w, lang)) for w in value)
    if not isinstance(value, Reason):
        return value
    args = {name: translated(v, lang) for name, v in value.params.items()}
    try:
        return t(value.key, lang, **args)
    except KeyError:  # an explanation the catalogues do not have yet: its English text
        log.warning("no text %r for a refusal reason", value.key)
        return str(value)

"""Editing the catalogues (a developer tool; the bot only reads them, see :mod:`i18n.catalog`).

``python -m i18n.po`` fills every ``zh_TW`` entry that is missing from its ``zh`` text:
OpenCC's ``s2twp`` conversion (简体 → 臺灣正體 with Taiwan phrasing) followed by
:data:`REVIEWED_TERMS`, the mahjong terms checked by hand. Entries already in ``zh_TW`` are
kept as they are (they may have been reviewed); ``--all`` converts everything again.
Needs the ``opencc`` pip package (a dev tool, not a runtime dependency).

From Python, :func:`add` appends ``{key: (zh, en)}`` entries to a domain in all three locales.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from i18n.catalog import LOCALES_DIR, domains, locale_dir, reload

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # fixed header dates: no churn in the .po files

#: Mahjong and bot terms after OpenCC, as a Taiwanese player writes them (checked by hand).
#: OpenCC already gives 槓 寶 莊 聽 胡 碰 吃 門清 七對 託管 準備 解散; these fix the rest.
REVIEWED_TERMS: tuple[tuple[str, str], ...] = (
    ("髮", "發"),  # 发 the tile (兴家 / 亮出发), never hair
    ("新余", "新餘"),  # the city 新餘 (OpenCC keeps 余 as a name)
    ("子區", "討論串"),  # Discord's 繁體 name for a thread
    ("弔", "吊"),  # 宝吊头 / 单吊: 吊 as players write it
    ("么", "幺"),  # 九幺 / 长九幺, as the engine's item names
    ("叄", "叁"),  # 叁包, as the rule is named
    ("托管", "託管"),  # OpenCC converts 托管 only in some phrases
    ("頻道里", "頻道裡"),
    ("許可權", "權限"),  # 权限: the Discord permission
    ("引數", "參數"),  # 参数 for players, not the programmer's 引數
    ("轉一週", "轉一周"),  # 轮转一周: once round the table, not a week
    ("全域性", "全局"),  # 全局动图: the whole hand
    ("喂", "餵"),  # 叁包 喂牌者 (feeds melds)
)


def _path(locale: str, domain: str) -> Path:
    return LOCALES_DIR / locale_dir(locale) / "LC_MESSAGES" / f"{domain}.po"


def load(locale: str, domain: str) -> Catalog:
    """A domain's catalogue (a new, empty one if the file does not exist yet)."""
    path = _path(locale, domain)
    if not path.exists():
        return Catalog(locale=locale_dir(locale), domain=domain, project="jiangxi-mahjong")
    with path.open("rb") as fh:
        return read_po(fh, locale=locale_dir(locale), domain=domain)


def save(catalog: Catalog, locale: str, domain: str) -> None:
    """Write a catalogue back (entries in their order, no line wrapping, no dates)."""
    path = _path(locale, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.project = "jiangxi-mahjong"
    catalog.version = "1"
    catalog.creation_date = catalog.revision_date = _EPOCH
    with path.open("wb") as fh:
        write_po(fh, catalog, width=0, omit_header=False, sort_output=False)


def _put(catalog: Catalog, key: str, text: str) -> None:
    """Add ``key`` or change its text (``Catalog.add`` keeps an existing entry's text)."""
    message = catalog.get(key)
    if message is None:
        catalog.add(key, text)
    else:
        message.string = text


def to_zh_tw(text: str) -> str:
    """简体 → 繁體 (Taiwan): OpenCC ``s2twp``, then :data:`REVIEWED_TERMS`."""
    import opencc  # a dev tool only

    out = str(opencc.OpenCC("s2twp").convert(text))
    for wrong, right in REVIEWED_TERMS:
        out = out.replace(wrong, right)
    return out


def add(domain: str, entries: Mapping[str, tuple[str, str]]) -> None:
    """Add (or replace) ``{key: (zh, en)}`` in ``domain`` for zh and en, and zh_TW converted."""
    for locale, side in (("zh", 0), ("en", 1)):
        catalog = load(locale, domain)
        for key, texts in entries.items():
            _put(catalog, key, texts[side])
        save(catalog, locale, domain)
    tw = load("zh-TW", domain)
    for key, texts in entries.items():
        _put(tw, key, to_zh_tw(texts[0]))
    save(tw, "zh-TW", domain)
    reload()


def review(domain: str, entries: Mapping[str, str]) -> None:
    """Set reviewed ``zh_TW`` texts (``{key: text}``) of ``domain`` by hand."""
    tw = load("zh-TW", domain)
    for key, text in entries.items():
        if tw.get(key) is None:
            raise KeyError(f"{domain}.po has no {key!r} to review")
        _put(tw, key, text)
    save(tw, "zh-TW", domain)
    reload()


def recheck(domain: str) -> int:
    """Apply :data:`REVIEWED_TERMS` to the ``zh_TW`` entries of ``domain`` already written
    (after adding a term); returns how many changed."""
    tw = load("zh-TW", domain)
    changed = 0
    for message in tw:
        if not message.id or not isinstance(message.string, str):
            continue
        text = message.string
        for wrong, right in REVIEWED_TERMS:
            text = text.replace(wrong, right)
        if text != message.string:
            message.string = text
            changed += 1
    save(tw, "zh-TW", domain)
    reload()
    return changed


def fill_zh_tw(*, again: bool = False) -> int:
    """Convert every ``zh`` entry missing in ``zh_TW`` (all of them with ``again``)."""
    done = 0
    for domain in domains("zh"):
        source, tw = load("zh", domain), load("zh-TW", domain)
        for message in source:
            if not message.id or not isinstance(message.id, str):
                continue
            have = tw.get(message.id)
            if again or have is None or not have.string:
                _put(tw, message.id, to_zh_tw(str(message.string)))
                done += 1
        save(tw, "zh-TW", domain)
    reload()
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="convert every entry again")
    n = fill_zh_tw(again=parser.parse_args().all)
    print(f"{n} zh_TW entries written")


if __name__ == "__main__":
    main()

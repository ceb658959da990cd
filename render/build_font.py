"""Rebuild the shipped font subsets in ``render/assets/`` (字体子集).

Usage (needs ``fonttools`` and Debian's ``fonts-noto-cjk``, ``fonts-dejavu-core`` and
``fonts-symbola``)::

    apt-get install -y fonts-noto-cjk fonts-dejavu-core fonts-symbola
    pip install fonttools
    python -m render.build_font [--rules /path/to/RULES.md]

Writes:

- ``NotoSansCJKsc-Bold-subset.otf``: labels, names and scoring items (every character of
  :func:`render.charset.wanted_characters` plus every CJK character of RULES.md and of the
  project's source, see :func:`render.charset.source_text`);
  GB2312, Big5's common characters and every Hangul syllable among them;
- ``NotoSerifCJKsc-Bold-subset.otf``: the characters on tile faces only;
- ``DejaVuSans-Bold-subset.ttf`` and ``Symbola-subset.ttf``: the fallback fonts (后备字体),
  what the Sans subset lacks of :data:`render.charset.FALLBACK_RANGES` (other alphabets,
  symbols, emoji);
- ``glyphs.txt``, ``glyphs-dejavu.txt``, ``glyphs-symbola.txt``: the characters each of
  those really covers, read at run time to pick a font per character; anything no font has
  is drawn as ``?``.

Licences: Noto under the SIL Open Font License 1.1 (``assets/OFL.txt``), DejaVu under the
Bitstream Vera licence (``assets/LICENSE-DejaVu.txt``), Symbola free for any use
(``assets/LICENSE-Symbola.txt``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from render.charset import FALLBACK_RANGES, TILE_CHARS, source_text, wanted_characters

ASSETS = Path(__file__).resolve().parent / "assets"
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
SC_INDEX = 2  # Simplified Chinese face inside the Noto CJK .ttc collections
SANS_OUT = "NotoSansCJKsc-Bold-subset.otf"
SERIF_OUT = "NotoSerifCJKsc-Bold-subset.otf"
#: The fallback fonts, in the order they are tried: (source, subset file, glyph list).
FALLBACKS = (
    (
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
        "DejaVuSans-Bold-subset.ttf",
        "glyphs-dejavu.txt",
    ),
    (
        Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
        "Symbola-subset.ttf",
        "glyphs-symbola.txt",
    ),
)


def _default_rules() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "shared" / "RULES.md", here / "RULES.md"):
        if candidate.exists():
            return candidate
    return None


def subset(source: Path, chars: set[str], out: Path) -> set[str]:
    """Subset ``source`` (face ``SC_INDEX`` of a collection) to ``chars``; return the
    characters kept."""
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    face = SC_INDEX if source.suffix == ".ttc" else -1
    font = TTFont(source, fontNumber=face, recalcTimestamp=False)  # reproducible bytes
    cmap = font.getBestCmap()
    kept = {c for c in chars if ord(c) in cmap}
    options = ft_subset.Options()
    options.hinting = False
    options.layout_features = ["kern", "palt"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.desubroutinize = False
    subsetter = ft_subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(ord(c) for c in kept))
    subsetter.subset(font)
    font.save(out)
    return kept


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=_default_rules())
    parser.add_argument("--noto-dir", type=Path, default=NOTO_DIR)
    args = parser.parse_args(argv)
    rules_text = args.rules.read_text(encoding="utf-8") if args.rules else ""
    wanted = wanted_characters(rules_text + source_text(Path(__file__).resolve().parent.parent))
    kept = subset(args.noto_dir / "NotoSansCJK-Bold.ttc", wanted, ASSETS / SANS_OUT)
    subset(args.noto_dir / "NotoSerifCJK-Bold.ttc", set(TILE_CHARS), ASSETS / SERIF_OUT)
    (ASSETS / "glyphs.txt").write_text("".join(sorted(kept)) + "\n", encoding="utf-8")
    missing = "".join(sorted(wanted - kept))
    names = [SANS_OUT, SERIF_OUT, "glyphs.txt"]
    have = set(kept)
    for (source, out, glyphs), ranges in zip(FALLBACKS, FALLBACK_RANGES, strict=True):
        asked = {chr(c) for lo, hi in ranges for c in range(lo, hi + 1)} - have
        extra = subset(source, {c for c in asked if c.isprintable()}, ASSETS / out)
        (ASSETS / glyphs).write_text("".join(sorted(extra)) + "\n", encoding="utf-8")
        have |= extra
        names += [out, glyphs]
    for name in names:
        print(f"{name}: {(ASSETS / name).stat().st_size / 1024:.1f} KiB")
    print(f"{len(kept)} characters kept; not in the source font: {missing!r}")


if __name__ == "__main__":
    main()

"""Rebuild the shipped font subsets in ``render/assets/`` (字体子集).

Usage (needs ``fonttools`` and Debian's ``fonts-noto-cjk``)::

    apt-get install -y fonts-noto-cjk
    pip install fonttools
    python -m render.build_font [--rules /path/to/RULES.md]

Writes:

- ``NotoSansCJKsc-Bold-subset.otf``: labels, names and scoring items (every character of
  :func:`render.charset.wanted_characters` plus every CJK character of RULES.md and of the
  project's source, see :func:`render.charset.source_text`);
- ``NotoSerifCJKsc-Bold-subset.otf``: the characters on tile faces only;
- ``glyphs.txt``: the characters the Sans subset really covers, read at run time so that
  anything else is drawn as ``?``.

The fonts are under the SIL Open Font License 1.1 (``assets/OFL.txt``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from render.charset import TILE_CHARS, source_text, wanted_characters

ASSETS = Path(__file__).resolve().parent / "assets"
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
SC_INDEX = 2  # Simplified Chinese face inside the Noto CJK .ttc collections
SANS_OUT = "NotoSansCJKsc-Bold-subset.otf"
SERIF_OUT = "NotoSerifCJKsc-Bold-subset.otf"


def _default_rules() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "shared" / "RULES.md", here / "RULES.md"):
        if candidate.exists():
            return candidate
    return None


def subset(source: Path, chars: set[str], out: Path) -> set[str]:
    """Subset face ``SC_INDEX`` of ``source`` to ``chars``; return the characters kept."""
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=SC_INDEX, recalcTimestamp=False)  # reproducible bytes
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
    for name in (SANS_OUT, SERIF_OUT, "glyphs.txt"):
        print(f"{name}: {(ASSETS / name).stat().st_size / 1024:.1f} KiB")
    print(f"{len(kept)} characters kept; not in the source font: {missing!r}")


if __name__ == "__main__":
    main()

"""``/mahjong replay``, ``/mahjong review`` and ``/mahjong export game``."""

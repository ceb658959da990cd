"""The scoring desk: ``/mahjong score`` and ``/mahjong record`` (算分台)."""

"""The game commands (``/mahjong new|join|…``), their buttons and the session on Discord."""

"""``/mahjong help`` (帮助): the in-Discord guide and its texts."""

"""``/mahjong leaderboard``, ``/mahjong stats``, ``/mahjong history`` and their pages."""

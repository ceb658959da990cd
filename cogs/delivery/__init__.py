"""What reaches Discord as a game changes: the table message, hand DMs, alerts, public lines,
the pictures they carry, and where each game shows (its thread, its message ids)."""

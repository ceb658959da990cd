"""Discord side of the bot, a folder per concern: the command extensions
(``cogs.<concern>.commands``: game, desk, stats, replay, help) with their views and texts,
and ``cogs.delivery`` (what reaches Discord as a game changes); shared checks at the top."""

"""Discord side of the bot: slash commands, views, delivery, timers (one cog per module)."""

"""Start-up core of the Discord bot: settings, logging, Discord URLs, the Bot class.

Nothing here knows the game; ``bot.py`` wires these pieces together and the cogs
(``cogs/``) add the commands.
"""

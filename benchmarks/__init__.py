"""Benchmarks and load tools (print figures; never imported by the bot)."""

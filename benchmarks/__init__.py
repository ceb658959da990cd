"""Benchmarks and load tools: each prints figures (``python -m benchmarks.NAME``), none is a test.

They live outside the product packages so that the bot ships and imports none of them; they
drive the packages only through their public calls.
"""

"""End-to-end tests: the real bot process against a fake Discord (see ``conftest.py``)."""

"""The service layer between the cogs and engine/db: no Discord types here.

:class:`services.game.GameService` runs games; :mod:`services.model` holds the plain values
it hands out; :mod:`services.engine_adapter` is the narrow interface to the engine.
"""

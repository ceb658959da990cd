"""The service layer between the cogs and engine/db: no Discord types here.

:class:`services.game.GameService` runs games; :mod:`services.model` holds the plain values
it hands out; :mod:`services.engine_adapter` is the narrow interface to the engine,
:mod:`services.real_engine` its adapter over ``engine.game`` (the engine's steps and its
privacy-filtered views, renamed by :mod:`services.engine_views`), and
:mod:`services.action_codec` the one codec of actions between buttons (``custom_id``), the
log (the engine's action JSON) and the engine.
"""

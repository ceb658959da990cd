"""AI policies (策略) by name: :mod:`engine.ai.policies`, what the arena (:mod:`engine.arena`)
pits against each other."""

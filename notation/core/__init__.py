"""The game-neutral core: container grammar, AST, errors, registry, replay, diff, output."""

"""Playing a table game in the browser: players, a new game, the turn screen, the full sheet."""

from .views import bp

__all__ = ["bp"]

"""The history of an account's games: every game ever played, filtered, a page at a time."""

from .views import bp

__all__ = ["bp"]

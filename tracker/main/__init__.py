"""Pages that belong to no feature: the home page, the rules, the health check, the switches."""

from tracker.main import language  # noqa: F401  (the language switch, on the same blueprint)
from tracker.main.views import bp

__all__ = ["bp"]

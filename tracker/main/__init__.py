"""Pages that belong to no feature: the home page, the rules, the health check."""

from tracker.main.views import bp

__all__ = ["bp"]

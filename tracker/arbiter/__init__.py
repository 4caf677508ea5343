"""The arbiter ("Sędzia"): settles arguments at the table about one roll or one poker round."""

from tracker.arbiter.views import bp

__all__ = ["bp"]

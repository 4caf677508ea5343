"""The statistics pages: `/statystyki` for the whole family and one page per player."""

from .views import bp

__all__ = ["bp"]

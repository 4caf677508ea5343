"""The account's data in the browser: download everything (JSON, CSV), import a JSON export."""

from .views import bp

__all__ = ["bp"]

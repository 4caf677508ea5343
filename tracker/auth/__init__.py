"""Accounts in the browser: sign up, sign in, sign out, and the account page with API tokens."""

from . import invites  # noqa: F401  (the invite routes, on the same blueprint)
from .views import bp

__all__ = ["bp"]

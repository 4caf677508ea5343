"""Accounts in the browser: sign up, sign in, sign out, and the account page with API tokens."""

from .views import bp

__all__ = ["bp"]

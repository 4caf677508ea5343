"""Kości: the score sheet for real dice (the Polish Yahtzee family), as a Flask app.

The app is built by `create_app` (`tracker.app`); importing this package loads nothing else, so
the rules (`tracker.rules`, pure Python) can be used and tested without Flask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(*args: Any, **kwargs: Any) -> Flask:
    """Build the app: see `tracker.app.create_app` (`flask --app tracker` finds this one)."""
    from tracker.app import create_app as build

    return build(*args, **kwargs)

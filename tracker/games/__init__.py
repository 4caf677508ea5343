"""Playing a table game in the browser: players, a new game, the turn screen, the full sheet."""

from . import (
    corrections,  # noqa: F401  (its routes: correcting an earlier turn)
    players,  # noqa: F401  (the players page: its routes are on `bp`)
    review,  # noqa: F401  (the review page: each choice in expected points)
)
from .views import bp

__all__ = ["bp"]

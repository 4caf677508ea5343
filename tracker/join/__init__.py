"""Joining a game by QR code or link („Dołącz telefon”): the link a phone opens, and the
panel where the game's account makes and revokes invitations. Guest phones are scoped in
`tracker.guests`."""

from .views import bp, panel

__all__ = ["bp", "panel"]

"""Players: named people of an account. Renaming changes no result (games refer to the id)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Player, name_key
from .accounts import clean_name
from .errors import InvalidInput, NotFound

NAME_MAX = 30


def validate_name(raw: str | None) -> str:
    name = clean_name(raw)
    if not name:
        raise InvalidInput("Podaj imię gracza.", "name")
    if len(name) > NAME_MAX:
        raise InvalidInput(f"Imię gracza może mieć najwyżej {NAME_MAX} znaków.", "name")
    if not name.isprintable():
        raise InvalidInput("Imię gracza zawiera niedozwolone znaki.", "name")
    if not any(ch.isalnum() for ch in name):
        raise InvalidInput("Imię gracza musi zawierać literę lub cyfrę.", "name")
    return name


def list_players(account_id: int) -> list[Player]:
    return list(
        db.session.scalars(
            select(Player).where(Player.account_id == account_id).order_by(Player.name_key)
        )
    )


def get_player(account_id: int, player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.account_id != account_id:
        raise NotFound("Nie ma takiego gracza.")
    return player


def players_by_names(account_id: int, names: list[str]) -> list[Player]:
    """The account's players with these names (case ignored), created when new; not committed."""
    cleaned = [validate_name(n) for n in names]
    keys = [name_key(n) for n in cleaned]
    if len(set(keys)) != len(keys):
        raise InvalidInput("Każdy gracz może siedzieć przy stole tylko raz.", "players")
    existing = {
        p.name_key: p
        for p in db.session.scalars(
            select(Player).where(Player.account_id == account_id, Player.name_key.in_(keys))
        )
    }
    result = []
    for name, key in zip(cleaned, keys, strict=True):
        player = existing.get(key)
        if player is None:
            player = Player(account_id=account_id, name=name, name_key=key)
            db.session.add(player)
        result.append(player)
    return result


def rename_player(account_id: int, player_id: int, new_name: str) -> Player:
    player = get_player(account_id, player_id)
    name = validate_name(new_name)
    player.name = name
    player.name_key = name_key(name)
    try:  # the unique key decides, also against a rename on another phone at the same moment
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise InvalidInput("Inny gracz ma już takie imię.", "name") from None
    return player

"""Who plays best: the seat reviews of the filtered games, per player and variant, and one
player's over time.

A seat review (`tracker.services.skill`, stored when a table game ends) says how many expected
points the seat's choices gave away against optimal solitaire play, and how lucky its dice were.
Per turn, the points given away hardly depend on the dice: over a few games they tell who
chooses best, where wins mostly tell who rolled best. The figures of different variants do not
compare (a turn in Kości potrójne is worth up to three times as much), so they are kept apart;
those of Kości potrójne are approximate (the advisor's `exact`).

Games played with the hint („Podpowiedzi”) are left out: there the table showed the best field.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import BigInteger, Integer, case, cast, func, literal, select

from ...extensions import db
from ...models import Game, SeatReview
from ..filters import GameFilter
from .counts import by_local_month
from .query import (
    KEY_VARIANTS,
    VARIANT_CODES,
    VARIANT_OF_CODE,
    finished_at,
    games_in,
    names,
    rows,
    sort_key,
    variant_order,
)
from .results import PlayerSkill, Skill, SkillPoint, SkillTimeline, VariantSkill

# The chart shows every game up to this many, monthly figures beyond (as the totals' chart).
SKILL_TIMELINE_GAMES = 60


def _conditions(account_id: int, f: GameFilter, player_id: int | None) -> list[Any]:
    conditions = [*games_in(account_id, f, seat_of=player_id), Game.hints.is_(False)]
    if player_id is not None:
        conditions.append(SeatReview.player_id == player_id)
    return conditions


def skill_by_player(
    account_id: int, f: GameFilter, player_id: int | None = None
) -> dict[int, dict[str, Skill]]:
    """Each player's figures per table variant (variants in `VARIANT_NAMES` order), from the
    reviewed seats of the filtered games (only `player_id`'s, if given): one pass."""
    code = case(VARIANT_CODES, value=Game.variant, else_=KEY_VARIANTS - 1)
    key = (SeatReview.player_id * literal(KEY_VARIANTS, BigInteger) + code).label("key")
    query = (
        select(
            key,
            func.count(),
            func.sum(SeatReview.turns),
            func.sum(SeatReview.loss),
            func.sum(SeatReview.luck),
            func.min(cast(SeatReview.exact, Integer)),
        )
        .select_from(SeatReview)
        .join(Game, Game.id == SeatReview.game_id)
        .where(*_conditions(account_id, f, player_id))
        .group_by(key)
    )
    found: list[tuple[int, str, Skill]] = []
    for packed, games, turns, loss, luck, exact in rows(query):
        pid, variant_code = divmod(packed, KEY_VARIANTS)
        variant = VARIANT_OF_CODE.get(variant_code)
        if variant is not None:  # a variant this version does not know is left out
            found.append((pid, variant, Skill(games, turns, loss, luck, bool(exact))))
    order = variant_order()
    result: dict[int, dict[str, Skill]] = defaultdict(dict)
    for pid, variant, skill in sorted(found, key=lambda r: order(r[1])):
        result[pid][variant] = skill
    return dict(result)


def skill_by_variant(
    figures: dict[int, dict[str, Skill]], who: dict[int, str] | None = None
) -> list[VariantSkill]:
    """Per table variant, in `VARIANT_NAMES` order, its players fewest expected points given
    away per turn first (then by name)."""
    missing = set(figures) - set(who or {})
    who = {**(who or {}), **(names(missing) if missing else {})}
    per_variant: dict[str, list[PlayerSkill]] = defaultdict(list)
    for pid, by_variant in figures.items():
        for variant, skill in by_variant.items():
            per_variant[variant].append(PlayerSkill(pid, who[pid], skill))
    result = []
    for variant in sorted(per_variant, key=variant_order()):
        players = sorted(
            per_variant[variant], key=lambda p: (p.skill.loss_per_turn or 0.0, sort_key(p.name))
        )
        result.append(VariantSkill(variant, all(p.skill.exact for p in players), players))
    return result


def who_plays_best(account_id: int, f: GameFilter) -> list[VariantSkill]:
    """The statistics page's „Kto gra najlepiej”."""
    return skill_by_variant(skill_by_player(account_id, f))


def skill_timeline(
    account_id: int, f: GameFilter, player_id: int, variant: str, games: int | None = None
) -> SkillTimeline:
    """One player's figures in one table variant, oldest first: per game, or per local month
    beyond `SKILL_TIMELINE_GAMES` games. `games`: how many games that is, when known."""
    conditions = [*_conditions(account_id, f, player_id), Game.variant == variant]
    joined = select(func.count()).select_from(SeatReview).join(Game, Game.id == SeatReview.game_id)
    if games is None:
        games = db.session.execute(joined.where(*conditions)).scalar_one()
    if games <= SKILL_TIMELINE_GAMES:
        played = rows(
            select(
                Game.finished_at,
                Game.id,
                SeatReview.turns,
                SeatReview.loss,
                SeatReview.luck,
                SeatReview.exact,
            )
            .select_from(SeatReview)
            .join(Game, Game.id == SeatReview.game_id)
            .where(*conditions)
            .order_by(Game.finished_at, Game.id)
        )
        points = [
            SkillPoint(finished_at(at), Skill(1, turns, loss, luck, bool(exact)), game_id)
            for at, game_id, turns, loss, luck, exact in played
        ]
        return SkillTimeline(variant, True, points)
    months = by_local_month(
        select(
            func.count(),
            func.sum(SeatReview.turns),
            func.sum(SeatReview.loss),
            func.sum(SeatReview.luck),
            func.sum(1 - cast(SeatReview.exact, Integer)),
        )
        .select_from(SeatReview)
        .join(Game, Game.id == SeatReview.game_id)
        .where(*conditions),
        f.zone,
    )
    points = [
        SkillPoint(month, Skill(count, turns, loss, luck, not approximate))
        for month, (count, turns, loss, luck, approximate) in sorted(months.items())
    ]
    return SkillTimeline(variant, False, points)


def api_skill(skill: dict[str, Skill]) -> dict[str, Any]:
    """One player's figures per variant as the API gives them: floats to 2 decimals."""
    return {
        variant: {
            "games": s.games,
            "turns": s.turns,
            "loss_per_turn": _rounded(s.loss_per_turn),
            "luck_per_game": _rounded(s.luck_per_game),
            "exact": s.exact,
        }
        for variant, s in skill.items()
    }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 2)

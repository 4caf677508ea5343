"""Who plays best after an import: the imported finished table games get their seat reviews
(`tracker.services.skill`), judged from their turns once the games are written, one short
transaction a game; without the advisor the import still succeeds and the figures wait.

The reviews are compared with the advisor's judgement of the same turns made afresh in the
test (`skill.review_turns`), and with the reviews of the account the file came from.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from flask import Flask
from history_builders import build_family, new_account
from sqlalchemy import func, select

from tracker import advisor, rules
from tracker.extensions import db
from tracker.models import Game, SeatReview
from tracker.services import accounts, games, skill, transfer
from tracker.store import games as game_store
from tracker.store import skill as skill_store

from .apps import built_once

Figures = list[tuple[int, int, float, float, float, int, bool]]


@pytest.fixture
def family(app: Flask) -> dict[str, Any]:
    """The Kowalscy with the games of `history_builders` (three finished table games, a
    finished poker match, an unfinished triple game and an unfinished rematch), their export,
    and an empty account, Nowakowie."""

    def build() -> dict[str, Any]:
        with app.app_context():
            kowalscy = new_account("Kowalscy")
            ids = build_family(kowalscy)
            nowakowie = new_account("Nowakowie")
            document = transfer.export_account(kowalscy)
        return {"source": kowalscy, "target": nowakowie, "ids": ids, "document": document}

    return built_once(app, "test_transfer_reviews.family", build)


def stored(game_id: int) -> Figures:
    return [
        (r.seat, r.turns, r.loss, r.luck, r.expected_start, r.total, r.exact)
        for r in skill_store.reviews_of(game_id)
    ]


def judged_afresh(account_id: int, game_id: int) -> Figures:
    """The game's reviews judged right now from its turns in force."""
    view = games.load(account_id, game_id)
    assert isinstance(view.variant, rules.Variant)
    reviews = skill.review_turns(view.variant, view.options, len(view.seats), view.turns)
    return [
        (seat, len(r.turns), r.loss, r.luck, r.expected_start, r.total, r.exact)
        for seat, r in enumerate(reviews)
    ]


def games_by_uid(account_id: int) -> dict[str, tuple[int, str, bool]]:
    """uid → (id, variant, finished) of the account's games."""
    rows = db.session.execute(
        select(Game.uid, Game.id, Game.variant, Game.finished_at).where(
            Game.account_id == account_id
        )
    )
    return {uid: (game_id, variant, done is not None) for uid, game_id, variant, done in rows}


def review_count(account_id: int) -> int:
    return (
        db.session.scalar(
            select(func.count())
            .select_from(SeatReview)
            .join(Game, Game.id == SeatReview.game_id)
            .where(Game.account_id == account_id)
        )
        or 0
    )


def advisor_unavailable(*_args: Any) -> Any:
    raise advisor.AdvisorUnavailable("The advisor table standard-63 is not built.")


def test_imported_finished_games_have_the_reviews_their_turns_give(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])
        source = games_by_uid(family["source"])
        target = games_by_uid(family["target"])
        figures = {
            uid: (stored(game_id), stored(source[uid][0])) for uid, (game_id, *_) in target.items()
        }
        afresh = {
            uid: judged_afresh(family["target"], game_id)
            for uid, (game_id, variant, finished) in target.items()
            if finished and variant != rules.POKER
        }

    assert result.reviewed == 3
    assert sorted(target[uid][1] for uid in afresh) == ["ordered", "scandinavian", "standard"]
    for uid, (imported, original) in figures.items():
        if uid in afresh:
            assert imported == afresh[uid], target[uid]
            assert imported  # a review for every seat, each of the seat's turns judged
            assert all(turns > 0 for _, turns, *_ in imported)
        else:  # dice poker, and the games still being played: nothing to judge
            assert imported == [], target[uid]
        assert imported == original, target[uid]  # as the table's own turns stored them


def test_a_second_import_of_the_same_file_reviews_nothing_again(app: Flask, family: dict[str, Any]):
    with app.app_context():
        transfer.import_account(family["target"], family["document"])
        before = db.session.execute(select(SeatReview.__table__)).all()
        again = transfer.import_account(family["target"], family["document"])
        after = db.session.execute(select(SeatReview.__table__)).all()

    assert (again.games, again.skipped, again.reviewed) == (0, 6, 0)
    assert after == before  # computed_at included: not one review rewritten


def test_without_the_advisor_the_import_succeeds_and_importing_again_fills_the_figures_in(
    app: Flask,
    family: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    client = app.test_client()
    with app.app_context():
        _, token = accounts.create_token(family["target"], "kopia")
    headers = {"Authorization": f"Bearer {token}"}
    body = json.dumps(family["document"])

    with monkeypatch.context() as patched, caplog.at_level(logging.WARNING):
        patched.setattr(advisor, "review_game", advisor_unavailable)
        response = client.post(
            "/api/v1/import", data=body, headers=headers, content_type="application/json"
        )

    assert response.status_code == 200
    assert response.get_json() == {"imported": {"games": 6, "players": 4}}
    assert "No review of game" in caplog.text
    assert "3 finished table games left without a review" in caplog.text
    with app.app_context():
        assert len(games_by_uid(family["target"])) == 6
        assert review_count(family["target"]) == 0

        # The advisor is back: the same file again completes what the first import left out.
        again = transfer.import_account(family["target"], family["document"])

        assert (again.games, again.skipped, again.reviewed) == (0, 6, 3)
        assert review_count(family["target"]) == review_count(family["source"]) > 0


def test_a_failure_while_reviewing_keeps_the_imported_games(
    app: Flask,
    family: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    """The games are in before the first review: an unexpected error there is logged, ends
    the reviewing, and the import is still a success."""
    real = skill.review_games
    calls = []

    def fails_on_the_second_game(game_ids: Any) -> skill.Reviewed:
        calls.append(game_ids)
        if len(calls) == 2:
            raise RuntimeError("dysk pełny")
        return real(game_ids)

    monkeypatch.setattr(skill, "review_games", fails_on_the_second_game)
    with app.app_context(), caplog.at_level(logging.ERROR):
        result = transfer.import_account(family["target"], family["document"])

        assert (result.games, result.players, result.reviewed) == (6, 4, 1)
        assert len(calls) == 2  # stopped at the failure
        assert "reviewing its games stopped after 1" in caplog.text
        assert len(games_by_uid(family["target"])) == 6


def test_a_game_is_judged_outside_any_transaction_and_stored_in_its_own(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """While a game is judged (the 10–70 ms of CPU), no transaction is open and the writers'
    queue is free, so turns at the table go on; each game's store is a commit of its own."""
    real_judge = skill._reviewed
    judged: list[tuple[bool, bool]] = []
    commits = []

    def judge(*args: Any) -> Any:
        queue = game_store.writer_queue()
        queue_held = queue is not None and getattr(queue._held, "yes", False)
        judged.append((db.session().in_transaction(), queue_held))
        return real_judge(*args)

    monkeypatch.setattr(skill, "_reviewed", judge)
    with app.app_context():
        real_commit = db.session.commit

        def commit() -> None:
            commits.append(review_count(family["target"]))
            real_commit()

        monkeypatch.setattr(db.session, "commit", commit)
        transfer.import_account(family["target"], family["document"])

    assert judged == [(False, False)] * 3
    # The reviews each commit holds: none with the games and the audit entry, then one commit
    # a game, each adding its seats' reviews (the tie: two seats; ordered: one; Scandinavian:
    # two).
    assert commits[-4:] == [0, 2, 3, 5]


def test_a_game_changed_while_it_was_judged_is_judged_again(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """A phone takes back the last turn of an imported game while the import judges it: the
    stale judgement is not stored, the game (no longer finished) gets no review."""
    real_judge = skill._reviewed
    ordered_uid = family["document"]["games"][1]["uid"]
    undone = []

    def judge(game_id: int, *args: Any) -> Any:
        rows = real_judge(game_id, *args)
        game = db.session.get(Game, game_id)
        assert game is not None
        if game.uid == ordered_uid:
            games.undo_last_turn(family["target"], game_id)
            undone.append(game_id)
        db.session.rollback()
        return rows

    monkeypatch.setattr(skill, "_reviewed", judge)
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])

        assert undone
        assert not games.load(family["target"], undone[0]).finished
        assert stored(undone[0]) == []
        assert result.reviewed == 2

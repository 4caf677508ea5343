"""Who plays best after an import: the imported finished table games get their seat reviews
(`tracker.services.skill`), judged from their turns once the games are written, one short
transaction a game: for `KOSCI_IMPORT_REVIEW_SECONDS` before the import answers, the rest by
the background reviewer (`tracker.services.reviewer`), which `serve` also starts in each worker
for every finished table game left without reviews. Without the advisor the import still
succeeds and the figures wait.

The reviews are compared with the advisor's judgement of the same turns made afresh in the
test (`skill.review_turns`), and with the reviews of the account the file came from. The
background thread is waited for through `reviewer.wait`, never by sleeping.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from history_builders import build_family, new_account
from sqlalchemy import delete, event, func, select

from tracker import advisor, cli, rules
from tracker.extensions import db
from tracker.models import Game, SeatReview
from tracker.services import accounts, games, reviewer, skill, transfer
from tracker.store import games as game_store
from tracker.store import skill as skill_store

from .apps import built_once

Figures = list[tuple[int, int, float, float, float, int, bool]]

WAIT_SECONDS = 60.0  # for the background thread: only a failure takes this long
SYNCHRONOUS = {"KOSCI_IMPORT_REVIEW_SECONDS": 600}  # all reviewed before the import answers
IN_THE_BACKGROUND = {"KOSCI_IMPORT_REVIEW_SECONDS": 0}  # none


@pytest.fixture
def app_config() -> dict[str, Any]:
    return SYNCHRONOUS


@pytest.fixture(autouse=True)
def _no_reviewer_left_running(app: Flask) -> Iterator[None]:
    yield
    assert reviewer.wait(app, WAIT_SECONDS), "the background reviewer never ended"


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


def table_games_finished(family: dict[str, Any], account_id: int) -> list[int]:
    """The ids of the account's finished table games (tie, ordered, Scandinavian)."""
    with_variant = games_by_uid(account_id).values()
    return sorted(i for i, variant, done in with_variant if done and variant != rules.POKER)


def drop_reviews(game_ids: list[int]) -> None:
    """As if the server had stopped before these games were reviewed."""
    db.session.execute(delete(SeatReview).where(SeatReview.game_id.in_(game_ids)))
    db.session.commit()


def advisor_unavailable(*_args: Any) -> Any:
    raise advisor.AdvisorUnavailable("The advisor table standard-63 is not built.")


# --- reviewed before the import answers ------------------------------------------------------


def test_imported_finished_games_have_the_reviews_their_turns_give(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])
        idle = reviewer.wait(app, 0)
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

    assert (result.reviewed, result.review_pending) == (3, 0)
    assert idle  # nothing was left to the background
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

    assert (again.games, again.skipped, again.reviewed, again.review_pending) == (0, 6, 0, 0)
    assert after == before  # computed_at included: not one review rewritten


def test_reviewing_only_the_missing_skips_a_game_that_has_reviews(
    app: Flask, family: dict[str, Any]
):
    """What the background reviewer asks for: a game reviewed meanwhile (by another worker's
    reviewer, by a second import) is not judged again."""
    game_ids = sorted(family["ids"][k] for k in ("tie", "ordered", "scandinavian"))
    with app.app_context():
        before = db.session.execute(select(SeatReview.__table__)).all()
        skipped = skill.review_games(game_ids, only_missing=True)
        after = db.session.execute(select(SeatReview.__table__)).all()
        drop_reviews(game_ids[:1])
        one = skill.review_games(game_ids, only_missing=True)

    assert skipped == skill.Reviewed(reviewed=0, unavailable=0)
    assert after == before
    assert one == skill.Reviewed(reviewed=1, unavailable=0)


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
        patched.setattr(advisor, "summarise_game", advisor_unavailable)
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


def test_a_failure_while_reviewing_keeps_the_imported_games_and_leaves_the_rest_to_the_background(
    app: Flask,
    family: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    """The games are in before the first review: an unexpected error there is logged, ends
    the reviewing before the answer, and the import is still a success; the games after the
    one that failed are reviewed in the background."""
    real = skill.review_games
    calls: list[tuple[str, list[int]]] = []

    def fails_on_the_second_game(game_ids: Any, **kwargs: Any) -> skill.Reviewed:
        calls.append((threading.current_thread().name, list(game_ids)))
        if len(calls) == 2:
            raise RuntimeError("dysk pełny")
        return real(game_ids, **kwargs)

    monkeypatch.setattr(skill, "review_games", fails_on_the_second_game)
    with app.app_context(), caplog.at_level(logging.ERROR):
        result = transfer.import_account(family["target"], family["document"])
        assert reviewer.wait(app, WAIT_SECONDS)

        assert (result.games, result.players, result.reviewed, result.review_pending) == (
            6,
            4,
            1,
            1,
        )
        assert "reviewing its games stopped after 1" in caplog.text
        assert len(games_by_uid(family["target"])) == 6
        tie, _, scandinavian = table_games_finished(family, family["target"])
        assert [stored(g) != [] for g in (tie, scandinavian)] == [True, True]
        assert review_count(family["target"]) == 4  # the tie's two seats, the Scandinavian's two

    main = threading.current_thread().name
    assert [name for name, _ in calls] == [main, main, "kosci-reviews"]


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
        target_reviews = (
            select(func.count())
            .select_from(SeatReview)
            .join(Game, Game.id == SeatReview.game_id)
            .where(Game.account_id == family["target"])
        )

        def commit(conn: Any) -> None:  # every commit: the ORM session's or a write's own
            commits.append(conn.execute(target_reviews).scalar())

        event.listen(db.engine, "commit", commit)
        try:
            transfer.import_account(family["target"], family["document"])
        finally:
            event.remove(db.engine, "commit", commit)

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


# --- the rest in the background --------------------------------------------------------------


@pytest.mark.parametrize("app_config", [IN_THE_BACKGROUND])
def test_with_no_time_to_review_the_import_answers_at_once_and_the_background_stores_every_review(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """The import answers before a single game is judged; the background thread then stores
    the same reviews the import would have, in an app context of its own whose session it
    removes at the end."""
    real = skill.review_games
    started, go_on = threading.Event(), threading.Event()
    judged_in: list[str] = []
    removed_in: list[str] = []

    def waits_for_the_answer(game_ids: Any, **kwargs: Any) -> skill.Reviewed:
        judged_in.append(threading.current_thread().name)
        started.set()
        assert go_on.wait(WAIT_SECONDS)
        return real(game_ids, **kwargs)

    monkeypatch.setattr(skill, "review_games", waits_for_the_answer)
    with app.app_context():
        real_remove = db.session.remove

        def remove() -> None:
            removed_in.append(threading.current_thread().name)
            real_remove()

        monkeypatch.setattr(db.session, "remove", remove)
        result = transfer.import_account(family["target"], family["document"])
        at_the_answer = review_count(family["target"])
        # The same file again while the first game is being judged: the two still queued are
        # left to the reviewer, the one in hand is queued again (and skipped: reviewed by then).
        assert started.wait(WAIT_SECONDS)
        again = transfer.import_account(family["target"], family["document"])
        go_on.set()
        assert reviewer.wait(app, WAIT_SECONDS)

        target = table_games_finished(family, family["target"])
        figures = [stored(g) for g in target]
        afresh = [judged_afresh(family["target"], g) for g in target]
        source = [stored(g) for g in table_games_finished(family, family["source"])]

    assert (result.games, result.reviewed, result.review_pending) == (6, 0, 3)
    assert (again.games, again.reviewed, again.review_pending) == (0, 0, 3)
    assert at_the_answer == 0
    assert judged_in == ["kosci-reviews"] * 4  # one game a call, none before the answer
    assert figures == afresh == source
    assert all(figures)
    assert "kosci-reviews" in removed_in


@pytest.mark.parametrize("app_config", [IN_THE_BACKGROUND])
def test_the_api_answer_stays_the_same_when_reviews_are_left_to_the_background(
    app: Flask, family: dict[str, Any]
):
    client = app.test_client()
    with app.app_context():
        _, token = accounts.create_token(family["target"], "kopia")

    response = client.post(
        "/api/v1/import",
        data=json.dumps(family["document"]),
        headers={"Authorization": f"Bearer {token}"},
        content_type="application/json",
    )
    assert reviewer.wait(app, WAIT_SECONDS)

    assert response.status_code == 200
    assert response.get_json() == {"imported": {"games": 6, "players": 4}}
    with app.app_context():
        assert review_count(family["target"]) == review_count(family["source"]) == 5


@pytest.mark.parametrize("app_config", [{"KOSCI_IMPORT_REVIEW_SECONDS": 0.5}])
def test_what_the_time_allows_is_reviewed_before_the_answer_and_the_rest_after(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    real = skill.review_games
    judged_in: list[str] = []

    def slow(game_ids: Any, **kwargs: Any) -> skill.Reviewed:
        judged_in.append(threading.current_thread().name)
        done = real(game_ids, **kwargs)
        if threading.current_thread() is threading.main_thread():
            time.sleep(0.6)  # longer than the whole budget: one game is all it allows
        return done

    monkeypatch.setattr(skill, "review_games", slow)
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])
        assert reviewer.wait(app, WAIT_SECONDS)
        count = review_count(family["target"])

    assert (result.reviewed, result.review_pending) == (1, 2)
    assert judged_in == [threading.current_thread().name] + ["kosci-reviews"] * 2
    assert count == 5


@pytest.mark.parametrize("app_config", [IN_THE_BACKGROUND])
def test_a_failure_in_the_background_is_logged_and_the_thread_ends(
    app: Flask,
    family: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    """A game that cannot be stored is logged and skipped; failures in a row (the database is
    gone) make the reviewer give up what is left, logged, and end. Nothing is raised out of
    the thread (pytest would report it)."""
    real = skill.review_games
    calls: list[list[int]] = []
    failing = {"from": 1, "to": 1}  # the calls (1-based) that fail

    def fails(game_ids: Any, **kwargs: Any) -> skill.Reviewed:
        calls.append(list(game_ids))
        if failing["from"] <= len(calls) <= failing["to"]:
            raise RuntimeError("dysk pełny")
        return real(game_ids, **kwargs)

    monkeypatch.setattr(skill, "review_games", fails)
    with app.app_context(), caplog.at_level(logging.ERROR):
        # One game fails: logged, skipped, the others reviewed.
        transfer.import_account(family["target"], family["document"])
        assert reviewer.wait(app, WAIT_SECONDS)
        tie, ordered, scandinavian = table_games_finished(family, family["target"])

        assert len(calls) == 3
        assert f"Background review of game {tie} failed" in caplog.text
        assert "dysk pełny" in caplog.text
        assert stored(tie) == []
        assert stored(ordered) != []
        assert stored(scandinavian) != []

        # Every game fails: after three in a row the rest is dropped and the thread ends.
        drop_reviews([ordered, scandinavian])
        calls.clear()
        failing["to"] = 99
        caplog.clear()
        reviewer.review_later(app, [tie, ordered, scandinavian, *family["ids"].values()])
        assert reviewer.wait(app, WAIT_SECONDS)

        assert len(calls) == 3
        assert "stopped after 3 failures in a row; 6 games left without reviews" in caplog.text
        assert reviewer.pending(app) == set()
        assert review_count(family["target"]) == 0

        # The reviewer takes work again afterwards.
        failing["to"] = 0
        reviewer.review_later(app, [tie])
        assert reviewer.wait(app, WAIT_SECONDS)
        assert stored(tie) != []


# --- when the server starts ------------------------------------------------------------------


def test_the_startup_query_finds_exactly_the_finished_table_games_without_reviews(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    ids = family["ids"]
    with app.app_context():
        nothing_missing = skill_store.unreviewed_game_ids()
        with monkeypatch.context() as patched:
            patched.setattr(advisor, "summarise_game", advisor_unavailable)
            transfer.import_account(family["target"], family["document"])
        drop_reviews([ids["scandinavian"]])
        missing = skill_store.unreviewed_game_ids()
        imported = table_games_finished(family, family["target"])

    assert nothing_missing == []
    # The target's three finished table games, and the source's game whose reviews went; not
    # the poker match (nothing to judge) nor the triple game and the rematch (unfinished).
    assert missing == sorted([*imported, ids["scandinavian"]])
    assert len(imported) == 3


class FakeGranian:
    """Stands in for `granian.server.Server`: runs the startup hooks as the main process does,
    then loads the app as one worker process does, noting whether the reviewer was idle
    before the worker started."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.hooks: list[Any] = []
        self.served: list[tuple[str, Any]] = []

    def on_startup(self, hook: Any) -> None:
        self.hooks.append(hook)

    def serve(self, target_loader: Any = None, wrap_loader: bool = True) -> None:
        for hook in self.hooks:
            hook()
        self.served.append(("before the worker", reviewer.wait(self.app, 0)))
        self.served.append(("worker", target_loader()))


def serve_one_worker(app: Flask, monkeypatch: pytest.MonkeyPatch) -> FakeGranian:
    fake = FakeGranian(app)
    monkeypatch.setattr("granian.server.Server", lambda *_args, **_settings: fake)
    monkeypatch.setattr(cli.sys, "platform", "linux")
    cli.run_server(app, "127.0.0.1", 8000, 2)
    return fake


def test_each_worker_of_serve_reviews_the_games_left_without_reviews(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """The server stopped before its reviewer was done: the next `serve` completes the reviews
    from a thread of a worker (none in the main process, which forks the workers), and the
    worker is served at once."""
    with app.app_context():
        game_ids = table_games_finished(family, family["source"])
        before = [stored(g) for g in game_ids]
        drop_reviews(game_ids)

    server = serve_one_worker(app, monkeypatch)
    assert reviewer.wait(app, WAIT_SECONDS)

    assert server.served == [("before the worker", True), ("worker", app)]
    with app.app_context():
        assert [stored(g) for g in game_ids] == before
        assert skill_store.unreviewed_game_ids() == []


def test_with_nothing_missing_a_worker_start_costs_one_query(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    statements: list[str] = []
    with app.app_context():
        engine = db.engine

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        serve_one_worker(app, monkeypatch)
        assert reviewer.wait(app, WAIT_SECONDS)
    finally:
        event.remove(engine, "before_cursor_execute", record)

    assert len(statements) == 1
    assert "NOT (EXISTS" in statements[0] or "NOT EXISTS" in statements[0]


def test_only_one_worker_at_a_time_looks_for_missing_reviews(app: Flask, family: dict[str, Any]):
    """Another worker process holds the lock: this one leaves the games to it."""
    game_id = family["ids"]["tie"]
    with app.app_context():
        drop_reviews([game_id])
    os.makedirs(app.instance_path, exist_ok=True)
    fd = os.open(os.path.join(app.instance_path, reviewer.LOCK_FILE), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        reviewer.review_missing(app)
        assert reviewer.wait(app, WAIT_SECONDS)
        with app.app_context():
            assert stored(game_id) == []
    finally:
        os.close(fd)

    reviewer.review_missing(app)  # the lock is free: this worker does it
    assert reviewer.wait(app, WAIT_SECONDS)
    with app.app_context():
        assert stored(game_id) != []


def test_an_error_while_looking_for_missing_reviews_is_logged_and_the_thread_ends(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def broken() -> list[int]:
        raise RuntimeError("no such table: seat_reviews")

    monkeypatch.setattr(skill_store, "unreviewed_game_ids", broken)
    with caplog.at_level(logging.ERROR):
        reviewer.review_missing(app)
        assert reviewer.wait(app, WAIT_SECONDS)

    assert "Background reviews stopped by an error" in caplog.text
    assert "no such table: seat_reviews" in caplog.text

"""Guessing a password with many requests at once, against `flask serve` (several worker
processes, each with threads): the slowing-down of failed sign-ins must hold for requests that
arrive together, not only one after another."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import func, select

from tracker.extensions import db
from tracker.models import LoginFailure, name_key
from tracker.services.accounts import FREE_FAILURES

from .web import Answer, Browserless, at_once, new_account

GUESSES = 24


def test_guesses_sent_at_once_get_no_more_password_checks_than_one_after_another(live_server):
    """Twenty-four wrong passwords for one name from one phone, released together: at most
    the five free attempts are checked (answered „Nieprawidłowa nazwa konta lub hasło”), the
    rest are told to wait (429), and each check is counted as one failure."""
    name, _ = new_account(live_server, "Zgadywani")
    phone = Browserless(live_server.url)
    token = phone.csrf_token("/logowanie")
    guess = {"csrf_token": token, "name": name, "password": "to nie jest hasło"}

    answers = at_once(
        *(lambda: phone.request("POST", "/logowanie", dict(guess)) for _ in range(GUESSES))
    )

    assert all(isinstance(a, Answer) for a in answers), answers
    statuses = Counter(a.status for a in answers)  # type: ignore[union-attr]
    checked = GUESSES - statuses[429]
    assert set(statuses) <= {400, 429}, statuses
    assert 1 <= checked <= FREE_FAILURES, statuses
    with live_server.app.app_context():
        failures = db.session.scalar(
            select(func.count()).where(LoginFailure.name_key == name_key(name))
        )
    assert failures == checked
    # The right password from the same phone waits too, until the delay has passed.
    right = phone.request("POST", "/logowanie", {**guess, "password": "tajne hasło 123"})
    assert right.status == 429, right

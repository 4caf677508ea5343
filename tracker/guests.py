"""Guest phones: a browser that joined one game by its invitation („Dołącz telefon”), without
the family's password. Part of the shared web room (`tracker.web` registers it).

The browser session holds the invitation (`SESSION_KEY`: its id and its token's digest), and
every request asks the database whether it is still live (`invitations.guest`), so a revoked
invitation is refused at once by every worker process. A guest that is not signed in may:

- open its game's screens (`GAME_PAGES`: the turn screen, the full sheet, the review, what
  live.js polls), and those of the game's rematches (`invitations.games_of`: „Rewanż” at the
  table takes the joined phones along);
- write and take back turns in it (`GAME_WRITES`) with a `play` invitation; a `watch` one gets
  403 for any write and a read-only turn screen (`tracker.games.watch`);
- open what anyone may open without an account (`PUBLIC`: sign-in, the rules, the arbiter…).

Everything else answers 404, as if it did not exist: history, statistics, other games, new
games, players, export, the account page, the API without a token of its own. An invitation
that ended answers 404 with the reason. A signed-in account is never a guest: it keeps what it
has, and the invitation in its session is ignored.
"""

from __future__ import annotations

import dataclasses
from typing import NoReturn

from flask import Flask, abort, g, make_response, request, session, url_for
from flask_login import current_user
from werkzeug.exceptions import NotFound as HTTPNotFound

from .i18n import N_, gettext
from .services import invitations
from .services.invitations import Guest

SESSION_KEY = "invitation"
WATCH_ONLY = N_("Ten telefon tylko ogląda grę.")
# The game a guest phone joined was deleted, and waits in the trash with its invitation.
DELETED = N_(
    "Tę grę usunięto na telefonie, który ją prowadzi. Jeśli ją przywrócą („Cofnij”), otwórz "
    "tę stronę jeszcze raz: telefon wróci do gry bez nowego kodu."
)
# Another game's page, asked by a guest (a rematch's link passed round the table, most often):
# the same answer for every game that is not its own, whether it exists or not.
OTHER_GAME_TITLE = N_("Ten telefon dołączył do innej gry")
OTHER_GAME = N_(
    "Do każdej gry telefon dołącza się jej własnym kodem QR albo linkiem (za rewanżem swojej "
    "gry idzie sam). Poproś o nie osobę prowadzącą grę: „Dołącz telefon” na ekranie tej gry."
)

# A guest's game: its screens, and (a `play` invitation) its writes.
GAME_PAGES = frozenset({"games.play", "games.sheet", "games.state", "games.review"})
GAME_WRITES = frozenset({"games.write", "games.undo"})
# What anyone may open, signed in or not: a guest is at least a visitor. Any endpoint not
# named here or above is a 404 for a guest (a new page is private until listed).
PUBLIC = frozenset(
    {
        "static",
        "main.home",
        "main.rules",
        "main.healthz",
        "main.healthz_database",
        "main.favicon",
        "main.manifest",
        "main.service_worker",
        "main.offline",
        "main.theme",
        "main.language",
        "auth.sign_in",
        "auth.sign_up",
        "arbiter.table",
        "arbiter.poker",
        "api.score",
        "api.advice",
        "api.poker_rank",
        "join.join",
    }
)


def remember(visitor: Guest, token_digest: str) -> None:
    """This browser is now a guest of `visitor`'s game (it replaces any other invitation)."""
    session[SESSION_KEY] = {"id": visitor.invitation_id, "digest": token_digest}
    # A phone that closes its browser mid-game still follows it when it comes back.
    session.permanent = True


def invited_game() -> int | None:
    """The game this browser's live invitation leads to, on a page anyone may open (the home
    page's way back to it): the latest rematch of the invited game, if the family played one;
    None for a signed-in account or without a live invitation."""
    if SESSION_KEY not in session or current_user.is_authenticated:
        return None
    visitor = _session_guest()
    return None if visitor is None else invitations.games_of(visitor)[-1]


def _session_guest() -> Guest | None:
    """The guest the invitation in this browser's session makes it, while that invitation
    lives (asked of the database every time: a revocation counts at once)."""
    stored = session.get(SESSION_KEY)
    if not isinstance(stored, dict):
        return None
    return invitations.guest(stored.get("id"), stored.get("digest"))


def current() -> Guest | None:
    """The guest this request was let in as (not for a signed-in account)."""
    visitor: Guest | None = g.get("guest")
    return visitor


def watching() -> bool:
    """Whether this request is a guest's that may only watch (no turn form, no undo)."""
    visitor = current()
    return visitor is not None and visitor.watching


def account_id() -> int:
    """The account whose game the guest follows (`tracker.web.account_id` for guests)."""
    visitor = current()
    if visitor is None:
        abort(404)
    return visitor.account_id


def join_url(token: str) -> str:
    """The invitation's link, absolute: the address the request came by (as the proxy settings
    allow, `KOSCI_PROXY_HOPS`). The token travels in the query, which no access log keeps."""
    return url_for("join.join", kod=token, _external=True)


def _admit() -> None:
    """Before every request: let a guest in to its game, or answer 404 (403 for a watching
    phone's write). Costs nothing for a browser without an invitation in its session."""
    g.pop("guest", None)  # only this request's guard lets a guest in (an app context reused)
    if request.endpoint in PUBLIC or request.endpoint is None:  # None: no such URL, a 404
        return
    if request.blueprint == "api" and "Authorization" in request.headers:
        return  # a bearer token speaks for itself (and the session stays unread)
    if SESSION_KEY not in session or current_user.is_authenticated:
        return
    visitor = _session_guest()
    if visitor is None:
        why = _why_shut_out()
        if why == DELETED:  # titled as on the family's phones (games.views)
            _not_here(gettext(why), gettext("Tej gry tu już nie ma"))
        abort(404, gettext(why))
    view_args = request.view_args or {}
    requested = view_args.get("game_id")
    if (
        requested != visitor.game_id
        and request.endpoint in GAME_PAGES | GAME_WRITES
        and requested in invitations.games_of(visitor)
    ):
        # A rematch of the invited game: the phone follows the table (same account, same mode).
        visitor = dataclasses.replace(visitor, game_id=requested)
    if requested != visitor.game_id:
        restored = _restored_as(visitor, requested)
        if restored is not None:
            # The old address of its game, deleted by mistake and restored („Cofnij”) as a new
            # game: the page opens that one, as on the family's phones (games.views).
            from .web import to_restored_game  # tracker.web imports this module

            abort(to_restored_game(restored))
        if "game_id" in view_args and request.blueprint != "api":
            # Not „Nie ma takiej strony”: the phone is in the wrong game, not at a broken link.
            _not_here(gettext(OTHER_GAME), gettext(OTHER_GAME_TITLE))
        abort(404)
    if request.endpoint in GAME_PAGES:
        g.guest = visitor
        return
    if request.endpoint in GAME_WRITES:
        if visitor.watching:
            abort(403, gettext(WATCH_ONLY))
        g.guest = visitor
        invitations.confirm_before_commit(visitor)
        return
    abort(404)


def _why_shut_out() -> str:
    """Why a phone whose invitation no longer lets it in gets a 404: its game deleted (and
    kept in the trash with its invitations, which come back if the family restores it), or its
    link expired or revoked."""
    from .services import trash  # tracker.services.trash → … → tracker.web → back here

    requested = (request.view_args or {}).get("game_id")
    stored = session.get(SESSION_KEY)
    digest = stored.get("digest") if isinstance(stored, dict) else None
    deleted = (
        isinstance(requested, int)
        and isinstance(digest, str)
        and trash.keeps_invitation(requested, digest)
    )
    return DELETED if deleted else invitations.GONE


def _restored_as(visitor: Guest, requested: object) -> int | None:
    """The game a guest's page at `requested` was restored as, when that is the guest's own
    (its invitation came back with it, `services.trash.restore`); for a page, not a background
    redraw, a write or the API. None otherwise."""
    from .services import trash  # tracker.services.trash → … → tracker.web → back here
    from .web import is_page_request

    if not isinstance(requested, int) or not is_page_request():
        return None
    if request.endpoint not in GAME_PAGES - {"games.state"}:  # a poll is told 404
        return None
    gone = trash.gone(visitor.account_id, requested)
    if gone is None or gone.restored_as is None:
        return None
    return gone.restored_as if gone.restored_as in invitations.games_of(visitor) else None


def _not_here(message: str, title: str) -> NoReturn:
    """A 404 page with its own title: what this phone may do instead."""
    from .errors import render_error  # tracker.errors → tracker.api → back here

    abort(make_response(render_error(HTTPNotFound(message), title=title)))


def rematch_to_follow(game_id: int) -> int | None:
    """On a guest phone's end screen: the rematch the family started, which it follows (it has
    no „Rewanż” of its own); None before one, and on the family's own phones."""
    if not is_guest():
        return None
    from .services import games  # tracker.services.games → … → tracker.web → back here

    return games.rematch_started(account_id(), game_id)


def is_guest() -> bool:
    return current() is not None


def register_guests(app: Flask) -> None:
    """The guard before every request, and `is_guest()` / `guest_watching()` for templates
    (a guest sees no button that would answer 404 or 403)."""
    app.before_request(_admit)
    app.add_template_global(is_guest, "is_guest")
    app.add_template_global(watching, "guest_watching")

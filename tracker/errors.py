"""One error renderer for the whole app: HTML pages, or JSON under `/api/`, in the request's
language (`tracker.i18n.select_locale`: the API's by `Accept-Language`)."""

from __future__ import annotations

from typing import IO, Any, NamedTuple, cast

from flask import Request, Response, current_app, g, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from werkzeug.exceptions import (
    BadRequest,
    HTTPException,
    RequestEntityTooLarge,
    ServiceUnavailable,
    UnsupportedMediaType,
)
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream

from tracker.api import error_response, is_api_request
from tracker.i18n import N_, gettext


class ErrorText(NamedTuple):
    title: str  # the error page's heading
    page: str  # what a person reads under it
    api: str  # the API's {"error": ...}


# Views may pass their own message, `abort(404, _("Nie ma takiej gry."))`: it then replaces both
# the page text and the API message. Marked with N_, translated by `describe`.
ERROR_TEXTS: dict[int, ErrorText] = {
    400: ErrorText(
        N_("Nieprawidłowe żądanie"),
        N_("Serwer nie zrozumiał tego żądania."),
        N_("Nieprawidłowe żądanie."),
    ),
    401: ErrorText(
        N_("Wymagane logowanie"),
        N_("Zaloguj się, aby kontynuować."),
        N_("Wymagane uwierzytelnienie."),
    ),
    403: ErrorText(
        N_("Brak dostępu"), N_("Nie masz uprawnień do tej strony."), N_("Brak uprawnień.")
    ),
    404: ErrorText(
        N_("Nie ma takiej strony"),
        N_("Sprawdź adres albo wróć na stronę główną."),
        N_("Nie ma takiego adresu ani zasobu."),
    ),
    405: ErrorText(
        N_("Niedozwolona metoda"),
        N_("Ten adres nie obsługuje takiego żądania."),
        N_("Ten adres nie obsługuje tej metody HTTP."),
    ),
    413: ErrorText(
        N_("Za dużo danych"), N_("Wysłane dane są zbyt duże."), N_("Treść żądania jest za duża.")
    ),
    415: ErrorText(
        N_("Nieobsługiwany format"),
        N_("Serwer nie obsługuje takiego formatu danych."),
        N_("Nieobsługiwany format treści żądania."),
    ),
    429: ErrorText(
        N_("Za dużo żądań"),
        N_("Zbyt wiele żądań naraz. Odczekaj chwilę i spróbuj ponownie."),
        N_("Za dużo żądań; spróbuj ponownie za chwilę."),
    ),
    500: ErrorText(
        N_("Błąd serwera"),
        N_("Coś poszło nie tak po naszej stronie. Spróbuj ponownie za chwilę."),
        N_("Wewnętrzny błąd serwera."),
    ),
    503: ErrorText(
        N_("Serwer chwilowo niedostępny"),
        N_("Spróbuj ponownie za chwilę."),
        N_("Usługa chwilowo niedostępna; spróbuj ponownie za chwilę."),
    ),
}

CSRF_MESSAGE = N_(
    "Formularz wygasł albo nie pochodzi z tej strony. Wróć, odśwież stronę i spróbuj jeszcze raz."
)


DATABASE_UNAVAILABLE = N_("Baza danych nie odpowiada; spróbuj ponownie za chwilę.")
# How long a phone or an API client is asked to wait before it tries again (Retry-After).
DATABASE_RETRY_AFTER = 5

# Says that a 502, 503 or 504 is the app's own answer, with a page of its own to read (the
# database does not answer, the advisor's tables are missing), not a gateway's in front of it
# (nginx's bare "502 Bad Gateway" while `serve` restarts). The service worker shows the first
# as it is and its offline page, which tries again by itself, for the second (static/js/sw.js).
OWN_ANSWER_HEADER = "Kosci-Answered-By"
NO_ANSWER_STATUSES = range(502, 505)


def mark_own_answer(response: Response) -> Response:
    """After every request: a 502, 503 or 504 of the app's says so (`OWN_ANSWER_HEADER`)."""
    if response.status_code in NO_ANSWER_STATUSES:
        response.headers[OWN_ANSWER_HEADER] = "app"
    return response


class KosciRequest(Request):
    """A request whose JSON parsing errors say what went wrong (Flask's default says nothing)."""

    @property
    def is_json(self) -> bool:
        """werkzeug's answer, without its parse of the Content-Type header when the header is
        exactly `application/json`, as the app's pages and most clients send it (the parse
        costs every turn about 10 µs)."""
        return self.headers.get("Content-Type") == "application/json" or super().is_json

    @cached_property
    def stream(self) -> IO[bytes]:
        """werkzeug's stream, except that a body of unknown length (sent in chunks) that runs
        past `max_content_length` is a 413 however it is read, as a body whose length is sent
        is. werkzeug reads such a body whole (`get_data`, hence JSON and URL-encoded forms)
        up to the limit and stops there without a word: a JSON import or a form would be
        taken cut short."""
        limit = self.max_content_length
        if (
            limit is not None
            and "wsgi.input_terminated" in self.environ
            and self.content_length is None
            and not self.shallow
        ):
            return cast(IO[bytes], _RefusedPastTheLimit(self.environ["wsgi.input"], limit))
        return super().stream

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:
            raise UnsupportedMediaType(
                gettext("Oczekiwano danych JSON (nagłówek Content-Type: application/json).")
            )
        raise BadRequest(
            gettext("Treść żądania nie jest poprawnym JSON-em (%(error)s).", error=str(e))
        ) from e


class _RefusedPastTheLimit(LimitedStream):
    """A stream read up to `limit` bytes, refused with 413 when it goes on past them (werkzeug's
    `readall` stops at the limit without looking further)."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        super().__init__(stream, limit, is_max=True)
        self._source = stream

    def readall(self) -> bytes:
        data = super().readall()
        if self.is_exhausted and self._source.read(1):
            raise RequestEntityTooLarge()
        return data


def render_error(
    error: HTTPException, *, retry_health: str | None = None, title: str | None = None
) -> ResponseReturnValue:
    """Render `error` as JSON for the API, as an HTML page everywhere else. `retry_health`: the
    page loads itself again once this address answers (static/js/app.js). `title`: the page's
    heading, when the status's own („Nie ma takiej strony”) would mislead."""
    if error.code is None or error.code < 400:
        return error
    if error.response is not None:  # abort(response): the view built the answer itself
        return error.response
    text = describe(error)
    # Keep headers the error carries (Allow for 405, WWW-Authenticate for 401), not its HTML type.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    if is_api_request():
        return error_response(text.api, error.code, headers)
    page = render_template(
        "errors.html",
        code=error.code,
        title=title or text.title,
        message=text.page,
        retry_health=retry_health,
    )
    return page, error.code, headers


def describe(error: HTTPException) -> ErrorText:
    """What a person (or an API client) is told about `error`."""
    code = error.code or 500
    known = ERROR_TEXTS.get(code)
    if known is not None:
        text = ErrorText(*(gettext(part) for part in known))
    else:
        # A status without a text of ours (416 for a range past a static file's end…).
        text = ErrorText(
            gettext("Błąd %(code)d", code=code),
            gettext(ERROR_TEXTS[500].page),
            gettext("Błąd HTTP %(code)d (%(name)s).", code=code, name=error.name),
        )
    if isinstance(error, CSRFError):
        message = gettext(CSRF_MESSAGE)
        return text._replace(page=message, api=message)
    if "description" in vars(error):  # given by the code that raised it, not the default
        return text._replace(page=str(error.description), api=str(error.description))
    return text


def database_unavailable(error: DBAPIError) -> ResponseReturnValue:
    """The database does not answer (PostgreSQL stopped or restarting, the network to it down):
    503 with Retry-After, and one line in the log, not a traceback a request. The answer is
    rendered as a signed-out one: the account is read from the database, which is not there
    (the error page would fail too, and the server answer an empty 500). Anything else the
    database refused is raised again: Flask logs it with its traceback and answers 500."""
    if not database_unreachable(error):
        raise error
    g._login_user = current_app.login_manager.anonymous_user()  # type: ignore[attr-defined]
    detail = " ".join(str(error.orig).split())
    current_app.logger.warning(
        "%s %s: baza danych nie odpowiada (%s)", request.method, request.path, detail
    )
    # A page asked for (a GET) opens by itself once the database answers again: the table
    # need not tap anything after a restart of PostgreSQL. A form's answer does not: loading
    # it again would send the form again.
    again = url_for("main.healthz_database") if request.method == "GET" else None
    return render_error(
        ServiceUnavailable(gettext(DATABASE_UNAVAILABLE), retry_after=DATABASE_RETRY_AFTER),
        retry_health=again,
    )


def database_unreachable(error: DBAPIError) -> bool:
    """Whether `error` says the database cannot be reached, rather than that it refused a
    statement: a connection lost (SQLAlchemy's own judgement), or one that could not be made
    (the driver gives no SQLSTATE then), or a connection or shutdown SQLSTATE (classes 08 and
    57P). SQLite's errors carry no SQLSTATE and are never this."""
    if error.connection_invalidated:
        return True
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    sqlstate = getattr(error.orig, "sqlstate", "")
    return sqlstate is None or str(sqlstate).startswith(("08", "57P"))

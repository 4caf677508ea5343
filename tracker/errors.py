"""One error renderer for the whole app: Polish HTML pages, or JSON under `/api/`."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Request, render_template
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, HTTPException, UnsupportedMediaType

from tracker.api import error_response, is_api_request


class ErrorText(NamedTuple):
    title: str  # the error page's heading
    page: str  # what a person reads under it
    api: str  # the API's {"error": ...}


# Views may pass their own message, `abort(404, "Nie ma takiej gry.")`: it then replaces both
# the page text and the API message.
ERROR_TEXTS: dict[int, ErrorText] = {
    400: ErrorText(
        "Nieprawidłowe żądanie", "Serwer nie zrozumiał tego żądania.", "Nieprawidłowe żądanie."
    ),
    401: ErrorText(
        "Wymagane logowanie", "Zaloguj się, aby kontynuować.", "Wymagane uwierzytelnienie."
    ),
    403: ErrorText("Brak dostępu", "Nie masz uprawnień do tej strony.", "Brak uprawnień."),
    404: ErrorText(
        "Nie ma takiej strony",
        "Sprawdź adres albo wróć na stronę główną.",
        "Nie ma takiego adresu ani zasobu.",
    ),
    405: ErrorText(
        "Niedozwolona metoda",
        "Ten adres nie obsługuje takiego żądania.",
        "Ten adres nie obsługuje tej metody HTTP.",
    ),
    413: ErrorText("Za dużo danych", "Wysłane dane są zbyt duże.", "Treść żądania jest za duża."),
    415: ErrorText(
        "Nieobsługiwany format",
        "Serwer nie obsługuje takiego formatu danych.",
        "Nieobsługiwany format treści żądania.",
    ),
    429: ErrorText(
        "Za dużo żądań",
        "Zbyt wiele żądań naraz. Odczekaj chwilę i spróbuj ponownie.",
        "Za dużo żądań; spróbuj ponownie za chwilę.",
    ),
    500: ErrorText(
        "Błąd serwera",
        "Coś poszło nie tak po naszej stronie. Spróbuj ponownie za chwilę.",
        "Wewnętrzny błąd serwera.",
    ),
}

CSRF_MESSAGE = (
    "Formularz wygasł albo nie pochodzi z tej strony. Wróć, odśwież stronę i spróbuj jeszcze raz."
)


class KosciRequest(Request):
    """A request whose JSON parsing errors say what went wrong (Flask's default says nothing)."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:
            raise UnsupportedMediaType(
                "Oczekiwano danych JSON (nagłówek Content-Type: application/json)."
            )
        raise BadRequest(f"Treść żądania nie jest poprawnym JSON-em ({e}).") from e


def render_error(error: HTTPException) -> ResponseReturnValue:
    """Render `error` as JSON for the API, as a Polish HTML page everywhere else."""
    if error.code is None or error.code < 400:
        return error
    if error.response is not None:  # abort(response): the view built the answer itself
        return error.response
    text = describe(error)
    # Keep headers the error carries (Allow for 405, WWW-Authenticate for 401), not its HTML type.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    if is_api_request():
        return error_response(text.api, error.code, headers)
    page = render_template("errors.html", code=error.code, title=text.title, message=text.page)
    return page, error.code, headers


def describe(error: HTTPException) -> ErrorText:
    """What a person (or an API client) is told about `error`."""
    code = error.code or 500
    text = ERROR_TEXTS.get(code) or ErrorText(error.name, ERROR_TEXTS[500].page, f"{error.name}.")
    if isinstance(error, CSRFError):
        return text._replace(page=CSRF_MESSAGE, api=CSRF_MESSAGE)
    if "description" in vars(error):  # given by the code that raised it, not the default
        return text._replace(page=str(error.description), api=str(error.description))
    return text

"""The rules' sentences as data: a Polish template and its values, translatable outside.

The rules never import Flask or the app's catalogs, yet what they say is shown in the player's
language. So a sentence is a `Text`: its template is marked with `N_` (a plain marker the catalogs'
extraction finds) and written with named %-placeholders, its values are kept beside it, and
`str(text)` is the Polish sentence. The presentation layer (`tracker.rules_text`) translates the
template and formats it with its values, each of them translated in turn when it is a `Text`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

Translate = Callable[[str], str]  # a gettext: the template's translation


def N_(message: str) -> str:  # noqa: N802 (the customary name of the marker)
    """Mark `message` for the catalogs without translating it."""
    return message


class Text:
    """A sentence (or a name) of the rules: `template % params`, every Text param formatted too.

    `lower` asks for the sentence in lower case ("Ful" inside a sentence: "ful"), applied after
    translation. Immutable and hashable, so callers may compare and deduplicate them.
    """

    __slots__ = ("lower", "params", "template")

    template: str
    params: tuple[tuple[str, str | int | Text], ...]
    lower: bool

    def __init__(
        self, template: str, /, *, _lower: bool = False, **params: str | int | Text
    ) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", tuple(sorted(params.items())))
        object.__setattr__(self, "lower", _lower)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Text is immutable")

    def format(self, translate: Translate) -> str:
        """The sentence with `translate` applied to the template and to every Text param."""
        template = translate(self.template)
        if self.params:
            values = {
                key: value.format(translate) if isinstance(value, Text) else value
                for key, value in self.params
            }
            template = template % values
        return template.lower() if self.lower else template

    def lowered(self) -> Text:
        """The same text in lower case (a name used inside a sentence)."""
        return Text(self.template, _lower=True, **dict(self.params))

    def __str__(self) -> str:
        return self.format(_same)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return (self.template, self.params, self.lower) == (
            other.template,
            other.params,
            other.lower,
        )

    def __hash__(self) -> int:
        return hash((self.template, self.params, self.lower))


def _same(message: str) -> str:
    return message


def joined(items: Sequence[str | int | Text], template: str) -> str | int | Text:
    """Items joined pairwise by `template` ("%(first)s i %(second)s"), from the right:
    a, b, c -> first=a, second=(first=b, second=c)."""
    if not items:
        return ""
    result = items[-1]
    for item in reversed(items[:-1]):
        result = Text(template, first=item, second=result)
    return result


def listed(
    items: Sequence[str | int | Text], separator: str, pair: str, end: str
) -> str | int | Text:
    """Items as a sentence lists them, the way CLDR's list patterns do (the app's `and_list`
    for names): one alone, two joined by `pair` ("%(first)s i %(second)s"), more by `separator`
    ("%(first)s, %(second)s") and the last by `end` ("%(items)s i %(last)s"): "a, b i c", never
    "a i b i c". Each template is translated on its own (English "a, b, and c")."""
    if len(items) <= 2:
        return joined(items, pair)
    return Text(end, items=joined(items[:-1], separator), last=items[-1])


def texts(items: Iterable[Text]) -> tuple[str, ...]:
    """The Polish sentences of `items`."""
    return tuple(str(item) for item in items)

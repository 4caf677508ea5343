"""Every text a template shows is inside a translation call (README "Języki").

For each template: the raw text outside `{% trans %}` blocks and outside `{{ }}`/`{% %}` is
parsed as HTML; a text node, or a human-facing attribute (title, alt, placeholder, aria-*,
a meta description, a button's value), that holds a letter is a failure, listed as
`template:line: "text"`. Inside expressions, a string that looks like words (a Polish letter, or
a capitalised word) must be an argument of `_`, `gettext` or `ngettext`, and the Polish-only
`plural()` must be gone (`ngettext("%(num)d gra", "%(num)d gier", n)` instead).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


# Texts with letters that are no language (keep it short; words of a language are translated).
ALLOWED = frozenset({"flask --app tracker create-account"})

LETTER = re.compile(r"[^\W\d_]")
POLISH_LETTER = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")
CAPITALISED_WORD = re.compile(r"^[A-ZĄĆĘŁŃÓŚŹŻ][a-ząćęłńóśźż]+(\s|$)")
HUMAN_ATTRIBUTES = frozenset(
    {"title", "alt", "placeholder", "aria-label", "aria-description", "aria-roledescription"}
)
TRANSLATING = frozenset({"_", "gettext", "ngettext", "pgettext"})  # pgettext: a word with a context
# Elements whose content is not text for people.
NOT_TEXT = frozenset({"script", "style"})


def template_names() -> list[str]:
    return sorted(path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.rglob("*.html"))


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True
    return env


def has_letter(text: str) -> bool:
    text = " ".join(text.split())
    return bool(LETTER.search(text)) and text not in ALLOWED


def raw_text_and_expression_problems(name: str) -> tuple[str, list[str]]:
    """The template's text outside translation blocks and tags, with its own line breaks (so
    that line numbers carry over), and the problems found inside expressions."""
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    text: list[str] = []
    line = 1
    problems: list[str] = []
    in_trans = False
    # The raw tokens, less white space; an operator is named by its sign, a string is unquoted.
    tokens = [
        (lineno, value if kind == "operator" else kind, value)
        for lineno, kind, value in environment().lex(source, name)
        if kind != "whitespace"
    ]
    frames: list[bool] = []  # per open parenthesis: is it a translation call's?
    for index, (lineno, kind, value) in enumerate(tokens):
        if kind == "name" and tokens[index - 1][1] == "block_begin":
            if value == "trans":
                in_trans = True
            elif value == "endtrans":
                in_trans = False
        if kind == "data" and not in_trans:
            text.append("\n" * (lineno - line))
            text.append(value)
            line = lineno + value.count("\n")
        elif kind == "(":
            previous = tokens[index - 1]
            frames.append(previous[1] == "name" and previous[2] in TRANSLATING)
        elif kind == ")" and frames:
            frames.pop()
        elif kind in ("variable_end", "block_end"):
            frames.clear()
        elif kind == "name" and value == "plural" and tokens[index + 1][1] == "(":
            problems.append(f"{name}:{lineno}: plural() (use ngettext)")
        elif kind == "string" and not any(frames) and not in_trans:
            value = value[1:-1]
            if POLISH_LETTER.search(value) or CAPITALISED_WORD.match(value):
                problems.append(f'{name}:{lineno}: "{value}" (in an expression)')
    return "".join(text), problems


class TextFinder(HTMLParser):
    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name = name
        self.skipping = 0
        self.found: list[str] = []

    def report(self, text: str, what: str = "") -> None:
        line = self.getpos()[0]
        self.found.append(f'{self.name}:{line}: "{" ".join(text.split())}"{what}')

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in NOT_TEXT:
            self.skipping += 1
        values = dict(attrs)
        for attribute, value in attrs:
            if not value or not has_letter(value):
                continue
            human = (
                attribute in HUMAN_ATTRIBUTES
                or (
                    tag == "meta" and attribute == "content" and values.get("name") == "description"
                )
                or (
                    tag == "input"
                    and attribute == "value"
                    and values.get("type") in ("submit", "button")
                )
                or bool(POLISH_LETTER.search(value))  # data-* texts for scripts, too
            )
            if human:
                self.report(value, f" ({attribute}=)")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in NOT_TEXT:
            self.skipping -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in NOT_TEXT and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and has_letter(data):
            self.report(data)


def untranslated(name: str) -> list[str]:
    text, problems = raw_text_and_expression_problems(name)
    finder = TextFinder(name)
    finder.feed(text)
    finder.close()
    return finder.found + problems


@pytest.mark.parametrize("name", template_names())
def test_every_text_of_the_template_is_translated(name: str):
    assert untranslated(name) == []


def test_the_check_finds_text_attributes_and_plural(tmp_path: Path, monkeypatch):
    """The check itself: each kind of untranslated text is found, translated ones are not."""
    page = tmp_path / "page.html"
    page.write_text(
        "{# Komentarz #}<h1>{{ _('Gry') }}</h1>\n"
        "<p>Witaj {{ name }}</p>\n"
        '<a title="Pomoc" href="{{ url }}">{% trans %}Zasady{% endtrans %}</a>\n'
        "{{ plural(n, 'gra', 'gry', 'gier') }} {{ submit('Zapisz') }} {{ submit(_('Zapisz')) }}\n"
        "<script>const a = 'tekst';</script>"
        "<button data-confirm=\"Usunąć?\">{{ _('Usuń') }}</button>\n",
        encoding="utf-8",
    )
    monkeypatch.setitem(globals(), "TEMPLATES", tmp_path)
    assert untranslated("page.html") == [
        'page.html:2: "Witaj"',
        'page.html:3: "Pomoc" (title=)',
        'page.html:5: "Usunąć?" (data-confirm=)',
        "page.html:4: plural() (use ngettext)",
        'page.html:4: "Zapisz" (in an expression)',
    ]

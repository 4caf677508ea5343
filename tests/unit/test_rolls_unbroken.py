"""`rolls_unbroken`: a message's rolls („5-5-3-1-2”) kept on one line, and nothing else changed."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from tracker.web import rolls_unbroken


@pytest.mark.parametrize(
    ("message", "html"),
    [
        (
            "Na innym telefonie zapisano już: Ala – Ful 5-5-5-3-3. Teraz kolej: Ola.",
            'Na innym telefonie zapisano już: Ala – Ful <span class="nowrap">5-5-5-3-3</span>. '
            "Teraz kolej: Ola.",
        ),
        ("Szóstki 18 (6-6-6-1-2)", 'Szóstki 18 (<span class="nowrap">6-6-6-1-2</span>)'),
        (
            "Para 4-4 i 3-3",
            'Para <span class="nowrap">4-4</span> i <span class="nowrap">3-3</span>',
        ),
        ("Zapisano: Ala – Szansa 23", "Zapisano: Ala – Szansa 23"),  # no roll
        ("kod ABCD-2345-6789", "kod ABCD-2345-6789"),  # part of a code, not a roll
        ("1-2-3-4-5-6", "1-2-3-4-5-6"),  # six numbers: not five dice
        ("7-8-9", "7-8-9"),  # not faces of a die
        ("<b>Ala</b> 1-1", '&lt;b&gt;Ala&lt;/b&gt; <span class="nowrap">1-1</span>'),  # escaped
    ],
)
def test_a_roll_stays_on_one_line_and_the_text_stays_as_it_was(message: str, html: str):
    assert rolls_unbroken(message) == Markup(html)


def test_a_message_already_marked_safe_is_not_escaped_again():
    assert rolls_unbroken(Markup("<em>Ala</em> 2-2")) == Markup(
        '<em>Ala</em> <span class="nowrap">2-2</span>'
    )

from __future__ import annotations

from wtforms import StringField
from wtforms.validators import AnyOf

from ..forms import PageForm
from ..services.invitations import PLAY, WATCH

MODE_LABELS = {PLAY: "Może wpisywać ruchy", WATCH: "Tylko ogląda"}
PICK_A_MODE = "Wybierz, czy telefon z tym linkiem może wpisywać ruchy, czy tylko oglądać."


class InvitationForm(PageForm):
    """A new invitation to the game: may the phone write turns, or only watch? The template
    draws the two choices (`MODE_LABELS`) as radio buttons."""

    mode = StringField(
        "Telefon z tym linkiem",
        default=PLAY,
        validators=[AnyOf(list(MODE_LABELS), message=PICK_A_MODE)],
    )

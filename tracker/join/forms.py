from __future__ import annotations

from wtforms import StringField
from wtforms.validators import AnyOf

from ..forms import PageForm
from ..i18n import N_, lazy_gettext
from ..services.invitations import PLAY, WATCH

# Marked only: the template translates them where it shows them.
MODE_LABELS = {PLAY: N_("Może wpisywać ruchy"), WATCH: N_("Tylko ogląda")}
PICK_A_MODE = lazy_gettext(
    "Wybierz, czy telefon z tym linkiem może wpisywać ruchy, czy tylko oglądać."
)


class InvitationForm(PageForm):
    """A new invitation to the game: may the phone write turns, or only watch? The template
    draws the two choices (`MODE_LABELS`) as radio buttons."""

    mode = StringField(
        lazy_gettext("Telefon z tym linkiem"),
        default=PLAY,
        validators=[AnyOf(list(MODE_LABELS), message=PICK_A_MODE)],
    )

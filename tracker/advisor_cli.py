"""`flask --app tracker advisor ...`: the optimal-play advisor's maintenance commands.

- `advisor recompute`: review every finished table game again from its turns (who plays best).
- `advisor build`: rebuild the optimal-play tables from the rules in force (numpy).
"""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import AppGroup

from .services import skill

advisor_cli = AppGroup(
    "advisor", help="The optimal-play advisor: its tables and the figures derived from them."
)


@advisor_cli.command("recompute")
def recompute_command() -> None:
    """Review every finished table game of every account again from its turns: the expected
    points each seat's choices gave away and its luck, as the statistics show them
    ("Kto gra najlepiej"). Idempotent; games of a variant without an advisor table are left
    without figures and counted."""
    done = skill.recompute_all()
    click.echo(f"Ocenione gry: {done.reviewed}.")
    if done.unavailable:
        click.echo(f"Bez oceny (brak tabeli doradcy dla wariantu): {done.unavailable}.", err=True)
    if done.removed:
        click.echo(f"Usunięte nieaktualne oceny miejsc: {done.removed}.")


@advisor_cli.command("build")
@click.argument("tables", nargs=-1)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write the tables here instead of tracker/advisor/data.",
)
def build_command(tables: tuple[str, ...], out: Path | None) -> None:
    """Rebuild the optimal-play tables (all, or the named ones: standard-63, ordered-63,
    ordered-42, scandinavian-63, triple-column-63) from the rules in force, and their manifest.
    Needs numpy (`pip install -e '.[advisor]'`); about two minutes for all."""
    from .advisor.specs import SPECS
    from .advisor.store import DATA_DIR

    unknown = sorted(set(tables) - set(SPECS))
    if unknown:
        raise click.UsageError(f"Nieznane tabele: {', '.join(unknown)}. Znane: {', '.join(SPECS)}.")
    try:
        from .advisor import build
    except ImportError as exc:  # numpy is the optional `advisor` extra
        raise click.ClickException(
            f"Do budowania tabel potrzebny jest numpy: pip install -e '.[advisor]' ({exc})."
        ) from exc
    manifest = build.build(tables or None, out=out or DATA_DIR)
    for key in tables or SPECS:
        entry = manifest["tables"][key]
        click.echo(f"{key}: pusta tabela {entry['empty_expected']:.4f} ({entry['seconds']} s)")

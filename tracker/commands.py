"""Account and maintenance commands: `create-account`, `create-token`, `recompute`.

Each runs in the app context (`with_appcontext`): the `flask` command pushes one anyway, but
`app.test_cli_runner()` and other callers of `app.cli` do not."""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from .extensions import db
from .models import Account, name_key
from .services import ServiceError, accounts, results


@click.command("create-account")
@with_appcontext
@click.argument("name")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
def create_account_command(name: str, password: str) -> None:
    """Create an account (a household or club) named NAME."""
    try:
        account = accounts.create_account(name, password)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"Utworzono konto {account.name}.")


@click.command("create-token")
@with_appcontext
@click.argument("name")
@click.option("--label", default="CLI", show_default=True, help="A name to tell tokens apart.")
def create_token_command(name: str, label: str) -> None:
    """Create an API token for account NAME; the token is the last line of output."""
    account = db.session.scalar(select(Account).where(Account.name_key == name_key(name)))
    if account is None:
        raise click.ClickException(f"Nie ma konta {name!r}.")
    _, plain = accounts.create_token(account.id, label)
    click.echo(f"Token API dla konta {account.name} (pokazywany tylko raz):")
    click.echo(plain)


@click.command("recompute")
@with_appcontext
def recompute_command() -> None:
    """Recompute every cached figure (points, totals, places, winners) from the turns."""
    count = results.recompute_all()
    click.echo(f"Przeliczono gry: {count}.")

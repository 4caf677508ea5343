"""names compared composed: `name_key` of accounts and players is NFC (e + combining diaeresis
is „ë”), so a name typed either way finds the same account or player.

Rewrites the keys stored for names whose key changes (rare: a name typed decomposed, or a letter
whose case folding decomposes it). A key that another account (or another player of the same
account) already holds is left as it is: that row keeps working under its old spelling, and
nothing is merged behind anyone's back. Downgrade leaves the keys alone (both spellings are
keys the old code understands as well as it did).

Revision ID: 4a8c0e2f6b3d
Revises: 3f7b9d1e5a2c
Create Date: 2026-12-08 12:00:00

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4a8c0e2f6b3d'
down_revision = '3f7b9d1e5a2c'
branch_labels = None
depends_on = None


def _key(name):
    """`tracker.models.name_key` as of this revision (frozen here: the app's may change)."""
    spaced = " ".join(name.split())
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", spaced).casefold())


def _rekey(conn, table, scope):
    rows = conn.execute(sa.text(f"SELECT id, {scope}, name, name_key FROM {table}")).all()
    taken = {(row[1], row[3]) for row in rows}
    for row_id, owner, name, key in rows:
        new = _key(name)
        if new == key or (owner, new) in taken:
            continue
        conn.execute(
            sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id"),
            {"key": new, "id": row_id},
        )
        taken.discard((owner, key))
        taken.add((owner, new))


def upgrade():
    conn = op.get_bind()
    _rekey(conn, "accounts", "1")  # one namespace for the whole server
    _rekey(conn, "players", "account_id")


def downgrade():
    pass

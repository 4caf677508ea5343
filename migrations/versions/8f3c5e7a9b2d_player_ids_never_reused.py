"""player ids never reused: `players` becomes an AUTOINCREMENT table on SQLite

A trash entry keeps its seats' player ids, and a merge the id of the player that remained (and
of the one merged away): SQLite otherwise gives the largest id again after a delete, so a game
of a deleted player came back as the game of the next new player, and a merge pointed at a
stranger. PostgreSQL sequences never reuse ids already. Batch mode rebuilds the table on
SQLite; env.py turns foreign keys off meanwhile, so no seat is lost (as b7c1d2e3f4a5 did for
accounts and games).

Revision ID: 8f3c5e7a9b2d
Revises: 7e2b4d6f8a1c
Create Date: 2026-12-03 13:00:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '8f3c5e7a9b2d'
down_revision = '7e2b4d6f8a1c'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != 'sqlite':
        return
    rebuild = {'recreate': 'always', 'table_kwargs': {'sqlite_autoincrement': True}}
    with op.batch_alter_table('players', schema=None, **rebuild) as batch_op:
        pass


def downgrade():
    pass  # ids that are never reused harm nothing

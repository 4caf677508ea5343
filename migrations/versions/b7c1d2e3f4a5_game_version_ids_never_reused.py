"""game version, ids never reused, one rematch per game

- `games.version`: raised by every write to a game; caches and phones compare it.
- `accounts` and `games` become AUTOINCREMENT tables on SQLite, so an id is never given twice
  (SQLite otherwise reuses the largest id after a delete). PostgreSQL sequences never reuse
  ids already. Batch mode rebuilds both tables on SQLite; env.py turns foreign keys off
  meanwhile, so no seat or turn is lost.
- A unique index on `games.rematch_of_id`: a game has at most one rematch. Should a database
  already hold two rematches of one game, the later ones are unlinked first (they stay as
  ordinary games).

Revision ID: b7c1d2e3f4a5
Revises: 626fa887f2c3
Create Date: 2026-12-01 04:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7c1d2e3f4a5'
down_revision = '626fa887f2c3'
branch_labels = None
depends_on = None


def _sqlite() -> bool:
    return op.get_bind().dialect.name == 'sqlite'


def upgrade():
    sqlite = _sqlite()
    rebuild = {'recreate': 'always', 'table_kwargs': {'sqlite_autoincrement': True}} if sqlite else {}
    with op.batch_alter_table('accounts', schema=None, **rebuild) as batch_op:
        pass
    op.execute(
        "UPDATE games SET rematch_of_id = NULL WHERE rematch_of_id IS NOT NULL AND id NOT IN "
        "(SELECT min(id) FROM games WHERE rematch_of_id IS NOT NULL GROUP BY rematch_of_id)"
    )
    with op.batch_alter_table('games', schema=None, **rebuild) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='0', nullable=False))
        batch_op.create_index('uq_games_rematch_of_id', ['rematch_of_id'], unique=True)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('uq_games_rematch_of_id')
        batch_op.drop_column('version')

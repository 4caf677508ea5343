"""place in the seat results index

`ix_game_seats_results` covers every column the statistics read from the seats, so the seats
table itself is never read (docs/benchmarks.md, "Statistics"). The nemeses compare places
(`tracker/services/stats/dice.py`): `place` joins the index. Changes no row.

Revision ID: 2e6a8c0d4f1b
Revises: 1d5f7b9c2e4a
Create Date: 2026-12-06 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2e6a8c0d4f1b'
down_revision = '1d5f7b9c2e4a'
branch_labels = None
depends_on = None

BEFORE = ['game_id', 'player_id', 'seat', 'is_winner', 'total', 'generals', 'upper_bonuses',
          'extra_bonuses']


def upgrade():
    with op.batch_alter_table('game_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_game_seats_results')
        batch_op.create_index('ix_game_seats_results', [*BEFORE, 'place'], unique=False)


def downgrade():
    with op.batch_alter_table('game_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_game_seats_results')
        batch_op.create_index('ix_game_seats_results', BEFORE, unique=False)

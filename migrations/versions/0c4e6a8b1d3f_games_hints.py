"""games.hints: the table agreed to the hint („Podpowiedzi”) when the game started

- `games.hints`: the turn screen of this game marks the best field for the dice entered (optimal
  solitaire play, tracker/advisor) and shows each field's expected final total on request.
  Chosen when the game is created, kept by its rematch; false for every existing game (off by
  default) and for dice poker, which has no field to choose.

Revision ID: 0c4e6a8b1d3f
Revises: f6d4b8c0e2a5
Create Date: 2026-12-05 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0c4e6a8b1d3f'
down_revision = 'f6d4b8c0e2a5'
branch_labels = None
depends_on = None


def upgrade():
    # A constant default ('0': false on both SQLite and PostgreSQL), so SQLite adds the column in
    # place; an expression default would make batch mode rebuild `games` without AUTOINCREMENT.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hints', sa.Boolean(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('hints')

"""deleted game id: a phone still on a deleted game's page is told so, or led to it restored

- `deleted_games.game_id`: the id the game had before it went to the trash (indexed with the
  account), so that its old address can say „usunięto” or lead to the game it was restored
  as. Entries from before this revision have none and keep the plain 404.

Revision ID: 7d1f3b5c9e2a
Revises: 6c0e2a4b8d1f
Create Date: 2026-12-03 13:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7d1f3b5c9e2a'
down_revision = '6c0e2a4b8d1f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_id', sa.Integer(), nullable=True))
        batch_op.create_index('ix_deleted_games_account_game', ['account_id', 'game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.drop_index('ix_deleted_games_account_game')
        batch_op.drop_column('game_id')


"""deleted games: a deleted game is kept 30 days in the trash („Kosz”) and can be restored

- `deleted_games`: per deleted game, the game as the export writes it (a one-game
  `kosci-export` document), the seats' player ids, the game that was its rematch, what the
  trash lists (variant, names, times), and once restored, when and as which game. Restoring
  replays the document through the rules, like an import (tracker/services/trash.py). Ids
  are never used twice.

Nothing existing changes: games deleted before this revision are gone, as they were.

Revision ID: 5b9d1f3a7c4e
Revises: 4a8c0e2f6b3d
Create Date: 2026-12-03 12:15:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5b9d1f3a7c4e'
down_revision = '4a8c0e2f6b3d'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('deleted_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=32), nullable=False),
    sa.Column('variant', sa.String(length=20), nullable=False),
    sa.Column('names', sa.JSON(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('deleted_at', sa.DateTime(), nullable=False),
    sa.Column('document', sa.JSON(), nullable=False),
    sa.Column('player_ids', sa.JSON(), nullable=False),
    sa.Column('rematch_uid', sa.String(length=32), nullable=True),
    sa.Column('restored_at', sa.DateTime(), nullable=True),
    sa.Column('restored_game_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_deleted_games_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deleted_games')),
    sqlite_autoincrement=True,
    )
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.create_index('ix_deleted_games_account_deleted', ['account_id', 'deleted_at'], unique=False)


def downgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.drop_index('ix_deleted_games_account_deleted')

    op.drop_table('deleted_games')

"""player merges: two players merged into one can be taken apart again („Cofnij połączenie”)

- `player_merges`: per merge, the merged-away player's name and creation time, the player
  that stayed, and the games whose seats moved, so that an undo gives exactly those seats
  (and their reviews) back to a player of that name (tracker/services/players.py). Ids are
  never used twice.

Nothing existing changes: merges made before this revision cannot be undone, as before.

Revision ID: 6c0e2a4b8d1f
Revises: 5b9d1f3a7c4e
Create Date: 2026-12-03 12:45:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6c0e2a4b8d1f'
down_revision = '5b9d1f3a7c4e'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_merges',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('source_name', sa.String(length=120), nullable=False),
    sa.Column('source_created_at', sa.DateTime(), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=False),
    sa.Column('game_ids', sa.JSON(), nullable=False),
    sa.Column('merged_at', sa.DateTime(), nullable=False),
    sa.Column('undone_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_player_merges_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_merges')),
    sqlite_autoincrement=True
    )
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.create_index('ix_player_merges_account_merged', ['account_id', 'merged_at'], unique=False)


def downgrade():
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.drop_index('ix_player_merges_account_merged')

    op.drop_table('player_merges')

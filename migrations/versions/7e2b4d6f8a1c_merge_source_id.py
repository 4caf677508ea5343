"""merge source id: a merge knows its merged-away player

- `player_merges.source_id`: the merged-away player's id, so that a game deleted before the
  merge comes back to the player that remained (not as a second player of the old name), and
  so that undoing a merge into a player who was merged away later (A into B, B into C, B→C
  undone) makes the earlier merge a merge into the player back (its „Cofnij” works again).

(`deleted_games.game_id`, added by 7d1f3b5c9e2a, lets a merge whose game was deleted and
restored follow the game to its new id, and a merge undone while its game is in the trash
give the game back to the player back when it is restored: tracker/services/trash.py.)

Empty for merges made before this revision, which work as they did.

Revision ID: 7e2b4d6f8a1c
Revises: 7d1f3b5c9e2a
Create Date: 2026-12-03 13:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7e2b4d6f8a1c'
down_revision = '7d1f3b5c9e2a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.add_column(sa.Column('source_id', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.drop_column('source_id')

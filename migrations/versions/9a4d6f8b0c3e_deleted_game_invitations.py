"""deleted game invitations: the phones joined to a game deleted by mistake follow it back

- `deleted_games.invitations`: the game's live invitations when it was deleted (mode, token
  digest, made, hard cap), which the cascade removes with the game. Restoring the game makes
  them again for the game it comes back as, so a phone joined by a QR code plays on without a
  new one. Entries from before this revision have none: their game comes back without links,
  as before.
- `ix_deleted_games_game`: a phone whose link no longer works, on its game's page, is told the
  game was deleted when the trash keeps its link (`services.trash.keeps_invitation`): looked up
  by the game's id alone, as the phone knows no account.

Revision ID: 9a4d6f8b0c3e
Revises: 8f3c5e7a9b2d
Create Date: 2026-12-03 17:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9a4d6f8b0c3e'
down_revision = '8f3c5e7a9b2d'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('invitations', sa.JSON(), nullable=True))
        batch_op.create_index('ix_deleted_games_game', ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.drop_index('ix_deleted_games_game')
        batch_op.drop_column('invitations')

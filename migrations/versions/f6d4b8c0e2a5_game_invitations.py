"""game invitations: a phone joins one game by QR code or link („Dołącz telefon”)

- `game_invitations`: a link to one game, to play (write turns) or only to watch, made by the
  account that owns the game and deleted with the game; only the SHA-256 of its token is
  stored. It ends when revoked (`revoked_at`), a few hours after the game ends, or at
  `expires_at` (tracker/services/invitations.py).

Revision ID: f6d4b8c0e2a5
Revises: e5c3a7f9b1d3
Create Date: 2026-12-03 11:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6d4b8c0e2a5'
down_revision = 'e5c3a7f9b1d3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('game_invitations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('mode', sa.String(length=5), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.CheckConstraint("mode IN ('play', 'watch')", name=op.f('ck_game_invitations_mode')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_game_invitations_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_invitations_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_invitations')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_game_invitations_token_hash'))
    )
    with op.batch_alter_table('game_invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_invitations_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('game_invitations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_invitations_game_id'))

    op.drop_table('game_invitations')

"""seat reviews: who plays best, each seat of a finished table game against optimal play

- `seat_reviews`: one row per seat of a finished table game, from `tracker.advisor.review_game`:
  the turns judged, the expected points the choices gave away (`loss`), the luck of the dice,
  the expected total of an empty sheet, the total, and whether the figures are exact (false
  for Kości potrójne). Derived from the turns and deleted with the game. Empty after this
  migration: `flask --app tracker advisor recompute` fills it for the games already finished.

Revision ID: 1d5f7b9c2e4a
Revises: 0c4e6a8b1d3f
Create Date: 2026-12-05 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '1d5f7b9c2e4a'
down_revision = '0c4e6a8b1d3f'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seat_reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('turns', sa.Integer(), nullable=False),
    sa.Column('loss', sa.Double(), nullable=False),
    sa.Column('luck', sa.Double(), nullable=False),
    sa.Column('expected_start', sa.Double(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('exact', sa.Boolean(), nullable=False),
    sa.Column('computed_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seat_reviews_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seat_reviews_player_id_players'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_reviews')),
    sa.UniqueConstraint('game_id', 'seat', name=op.f('uq_seat_reviews_game_id_seat'))
    )
    with op.batch_alter_table('seat_reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_reviews_player_id'), ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('seat_reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_reviews_player_id'))

    op.drop_table('seat_reviews')

"""player names hold emoji: players.name and players.name_key widen from 30 to 120

A name is still at most 30 characters as people count them (grapheme clusters), but one of them
may be an emoji of several code points ("👨‍👩‍👧" is five), and PostgreSQL counts code points.
SQLite does not enforce the length; batch mode rebuilds the table there all the same, so that
the schema says what the models say (env.py turns foreign keys off meanwhile: no seat is lost).

Revision ID: e5c3a7f9b1d3
Revises: d4b2f6e8a0c2
Create Date: 2026-12-03 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5c3a7f9b1d3'
down_revision = 'd4b2f6e8a0c2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('name', existing_type=sa.String(length=30), type_=sa.String(length=120), existing_nullable=False)
        batch_op.alter_column('name_key', existing_type=sa.String(length=30), type_=sa.String(length=120), existing_nullable=False)


def downgrade():
    # Names longer than 30 code points would not fit back: cut, as the old column would.
    op.execute("UPDATE players SET name = substr(name, 1, 30), name_key = substr(name_key, 1, 30)")
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=120), type_=sa.String(length=30), existing_nullable=False)
        batch_op.alter_column('name', existing_type=sa.String(length=120), type_=sa.String(length=30), existing_nullable=False)

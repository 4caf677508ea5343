"""game uid for export and import

Every game gets a stable uid (uuid4, 32 hex digits), unique within its account: an export names
each game by it, so importing the same file again finds the games it already brought in.

Existing games get a fresh uid here: the column is added nullable, filled row by row, then made
NOT NULL and unique (batch mode: SQLite rebuilds the table).

Revision ID: 94d5b6e03aad
Revises: 589dd0f99f21
Create Date: 2026-11-29 18:42:36.171623

"""
import uuid

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '94d5b6e03aad'
down_revision = '589dd0f99f21'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('uid', sa.String(length=32), nullable=True))

    games = sa.table('games', sa.column('id', sa.Integer()), sa.column('uid', sa.String(32)))
    connection = op.get_bind()
    ids = connection.execute(sa.select(games.c.id).where(games.c.uid.is_(None))).scalars().all()
    for game_id in ids:
        connection.execute(
            games.update().where(games.c.id == game_id).values(uid=uuid.uuid4().hex)
        )

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('uid', existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint(batch_op.f('uq_games_account_id_uid'), ['account_id', 'uid'])


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_games_account_id_uid'), type_='unique')
        batch_op.drop_column('uid')

"""account language: the language an account chose for its pages (Polish or English)

`accounts.language`: "pl", "en", or NULL (the browser's own choice, else Polish); set by the
language switch at the foot of every page (tracker/i18n.py). Changes no row.

Revision ID: 3f7b9d1e5a2c
Revises: 2e6a8c0d4f1b
Create Date: 2026-12-07 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3f7b9d1e5a2c'
down_revision = '2e6a8c0d4f1b'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_column('language')

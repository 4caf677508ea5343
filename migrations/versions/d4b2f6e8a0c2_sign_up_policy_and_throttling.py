"""sign-up policy: invites, sign-up attempts; sign-in throttled per (name, address)

- `invites`: one-time sign-up codes (only their SHA-256) for `KOSCI_SIGNUP=invite`, made by an
  account (deleted with it) or by the CLI (no account); `used_at` is set in the transaction
  that creates the account, and only while it is still NULL.
- `signup_attempts`: sign-up forms sent per address in the last hour (`KOSCI_SIGNUP_PER_HOUR`).
- `login_failures`: an index on (remote_addr, name_key, at), for counting failures per
  (name, address) and per address.

Revision ID: d4b2f6e8a0c2
Revises: c3a1e5d7f9b1
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4b2f6e8a0c2'
down_revision = 'c3a1e5d7f9b1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('invites',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code_hash', sa.String(length=64), nullable=False),
    sa.Column('created_by_account_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.Column('used_by_account_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['created_by_account_id'], ['accounts.id'], name=op.f('fk_invites_created_by_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['used_by_account_id'], ['accounts.id'], name=op.f('fk_invites_used_by_account_id_accounts'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invites')),
    sa.UniqueConstraint('code_hash', name=op.f('uq_invites_code_hash'))
    )
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invites_created_by_account_id'), ['created_by_account_id'], unique=False)

    op.create_table('signup_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('remote_addr', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signup_attempts'))
    )
    with op.batch_alter_table('signup_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signup_attempts_at'), ['at'], unique=False)
        batch_op.create_index('ix_signup_attempts_addr_at', ['remote_addr', 'at'], unique=False)

    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index('ix_login_failures_addr_name_at', ['remote_addr', 'name_key', 'at'], unique=False)


def downgrade():
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index('ix_login_failures_addr_name_at')

    with op.batch_alter_table('signup_attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_signup_attempts_addr_at')
        batch_op.drop_index(batch_op.f('ix_signup_attempts_at'))

    op.drop_table('signup_attempts')
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invites_created_by_account_id'))

    op.drop_table('invites')

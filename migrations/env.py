import logging
from logging.config import fileConfig

import click
from flask import current_app

from alembic import context
from alembic.runtime.migration import MigrationContext
from tracker.settings import MIGRATIONS_LOCK, NEWER_SCHEMA, ConfigError, reach_database

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically. `serve` and the tests run migrations inside the app's
# process: keep the loggers that already exist (the app's own among them) working.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger('alembic.env')


def get_engine():
    # Flask-SQLAlchemy 3 (get_engine() is deprecated there and warns).
    return current_app.extensions['migrate'].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace(
            '%', '%%')
    except AttributeError:
        return str(get_engine().url).replace('%', '%%')


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option('sqlalchemy.url', get_engine_url())
target_db = current_app.extensions['migrate'].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, 'metadatas'):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url,
        target_metadata=get_metadata(),
        literal_binds=True,
        **current_app.extensions['migrate'].configure_args
    )

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, 'autogenerate', False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info('No changes in schema detected.')

    # configure_args carry render_as_batch=True (tracker/extensions.py): SQLite cannot ALTER
    # most things, so Alembic rebuilds the table instead. Copied, so that this run's callback
    # is not stored in the app for the next run.
    conf_args = dict(current_app.extensions['migrate'].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)

    connectable = get_engine()
    try:
        reach_database(connectable)
    except ConfigError as exc:
        # `flask db upgrade` on a database that does not answer: one sentence saying where
        # and why (as `serve` says it), not the driver's traceback.
        raise click.ClickException(str(exc)) from None

    with connectable.connect() as connection:
        # A schema a later Kości made (a rollback after an upgrade): one sentence, nothing
        # touched, rather than alembic's "Can't locate revision".
        current = set(MigrationContext.configure(connection).get_current_heads())
        connection.rollback()  # that read's transaction: the migrations begin their own
        if not current <= {script.revision for script in context.script.walk_revisions()}:
            raise click.ClickException(NEWER_SCHEMA)
        # Batch mode rebuilds a SQLite table: copy, DROP TABLE, rename. With foreign keys on
        # (the app turns them on for every connection), that DROP deletes every row first and
        # its ON DELETE CASCADE takes the referring rows along: rebuilding `games` would delete
        # every seat and turn. Alembic's batch documentation says to turn them off meanwhile;
        # the pragma only works outside a transaction, so before the migrations begin.
        sqlite = connection.dialect.name == 'sqlite'
        if sqlite:
            connection.exec_driver_sql('PRAGMA foreign_keys=OFF')
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=get_metadata(),
                **conf_args
            )

            with context.begin_transaction():
                if connection.dialect.name == 'postgresql':
                    # Several servers on one database (README) restarted after an upgrade, or
                    # two `serve` started at once on a new one: without the lock both create
                    # alembic_version and run the same revisions, and the second stopped with
                    # a traceback. The second now waits, then finds nothing left to do.
                    connection.exec_driver_sql(f'SELECT pg_advisory_xact_lock({MIGRATIONS_LOCK})')
                context.run_migrations()
        finally:
            if sqlite:
                connection.rollback()
                broken = connection.exec_driver_sql('PRAGMA foreign_key_check').all()
                if broken:
                    logger.warning('Foreign keys that refer to no row: %s', broken)
                # The connection goes back to the app's pool: foreign keys on again.
                connection.exec_driver_sql('PRAGMA foreign_keys=ON')
                connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

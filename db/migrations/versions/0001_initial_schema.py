"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 17:36:55.610570

Every table of the store. Indexes for the leaderboard and stats queries (issue 9):

- ix_hand_results_board: (guild, is_ai, user, ...) covering scan for all-time/season boards;
- ix_hand_results_board_time: (guild, is_ai, created_at, ...) for month/week boards;
- ix_hand_results_player: (guild, user, variant, created_at, ...) covering a player's stats;
- ix_rating_history_player: a player's rating chart;
- ix_games_status_updated: unfinished games at start-up.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# Frozen copies of db.models' types: a migration never imports the models.
TIMESTAMP = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('guilds',
    sa.Column('id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('default_variant', sa.String(length=32), nullable=False),
    sa.Column('rule_options', sa.JSON(), nullable=False),
    sa.Column('turn_timeout', sa.Integer(), nullable=False),
    sa.Column('claim_timeout', sa.Integer(), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=False),
    sa.Column('hints', sa.Boolean(), nullable=False),
    sa.Column('current_season', sa.Integer(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.Column('updated_at', TIMESTAMP, nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_guilds'))
    )
    op.create_table('players',
    sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('display_name', sa.String(length=100), nullable=True),
    sa.Column('locale', sa.String(length=16), nullable=True),
    sa.Column('prefers_images', sa.Boolean(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.Column('updated_at', TIMESTAMP, nullable=False),
    sa.PrimaryKeyConstraint('user_id', name=op.f('pk_players'))
    )
    op.create_table('ratings',
    sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('is_ai', sa.Boolean(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('updated_at', TIMESTAMP, nullable=False),
    sa.PrimaryKeyConstraint('guild_id', 'variant', 'user_id', 'is_ai', name=op.f('pk_ratings'))
    )
    op.create_table('games',
    sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('seed_commitment', sa.String(length=128), nullable=True),
    sa.Column('totals', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('table_message_id', sa.BigInteger(), nullable=True),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.Column('updated_at', TIMESTAMP, nullable=False),
    sa.CheckConstraint("status IN ('lobby', 'active', 'finished', 'abandoned')", name=op.f('ck_games_status')),
    sa.ForeignKeyConstraint(['guild_id'], ['guilds.id'], name=op.f('fk_games_guild_id_guilds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    op.create_index('ix_games_guild_updated', 'games', ['guild_id', 'updated_at'])
    op.create_index('ix_games_status_updated', 'games', ['status', 'updated_at'])

    op.create_table('seasons',
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('started_at', TIMESTAMP, nullable=False),
    sa.ForeignKeyConstraint(['guild_id'], ['guilds.id'], name=op.f('fk_seasons_guild_id_guilds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('guild_id', 'number', name=op.f('pk_seasons'))
    )
    op.create_table('actions',
    sa.Column('game_id', sa.BigInteger(), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('action', sa.JSON(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_actions_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seq', name=op.f('pk_actions'))
    )
    op.create_table('hands',
    sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
    sa.Column('game_id', sa.BigInteger(), nullable=True),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('season', sa.Integer(), nullable=False),
    sa.Column('hand_no', sa.Integer(), nullable=False),
    sa.Column('winner_seats', sa.JSON(), nullable=False),
    sa.Column('winner_user_ids', sa.JSON(), nullable=False),
    sa.Column('how', sa.String(length=16), nullable=False),
    sa.Column('discarder_seat', sa.Integer(), nullable=True),
    sa.Column('discarder_user_id', sa.BigInteger(), nullable=True),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('items', sa.JSON(), nullable=False),
    sa.Column('deltas', sa.JSON(), nullable=False),
    sa.Column('seed_reveal', sa.JSON(), nullable=True),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.CheckConstraint("how IN ('self', 'discard', 'rob_kong', 'draw')", name=op.f('ck_hands_how')),
    sa.CheckConstraint("source IN ('online', 'record')", name=op.f('ck_hands_source')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_hands_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['guild_id'], ['guilds.id'], name=op.f('fk_hands_guild_id_guilds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hands')),
    sa.UniqueConstraint('game_id', 'hand_no', name='uq_hands_game_hand_no')
    )
    op.create_index('ix_hands_guild_created', 'hands', ['guild_id', 'created_at'])

    op.create_table('snapshots',
    sa.Column('game_id', sa.BigInteger(), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_snapshots_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seq', name=op.f('pk_snapshots'))
    )
    op.create_table('hand_results',
    sa.Column('hand_id', sa.BigInteger(), nullable=False),
    sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('game_id', sa.BigInteger(), nullable=True),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('season', sa.Integer(), nullable=False),
    sa.Column('delta', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('self_draw', sa.Boolean(), nullable=False),
    sa.Column('dealt_in', sa.Boolean(), nullable=False),
    sa.Column('is_ai', sa.Boolean(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_hand_results_hand_id_hands'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('hand_id', 'seat', name=op.f('pk_hand_results'))
    )
    op.create_index('ix_hand_results_board', 'hand_results', ['guild_id', 'is_ai', 'user_id', 'variant', 'season', 'created_at', 'delta', 'won'])
    op.create_index('ix_hand_results_board_time', 'hand_results', ['guild_id', 'is_ai', 'created_at', 'user_id', 'variant', 'season', 'delta', 'won'])
    op.create_index('ix_hand_results_game', 'hand_results', ['game_id'])
    op.create_index('ix_hand_results_player', 'hand_results', ['guild_id', 'user_id', 'variant', 'created_at', 'delta', 'won', 'self_draw', 'dealt_in', 'season'])

    op.create_table('physical_records',
    sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('reporter_id', sa.BigInteger(), nullable=False),
    sa.Column('player_ids', sa.JSON(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('confirmations', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('expires_at', TIMESTAMP, nullable=False),
    sa.Column('hand_id', sa.BigInteger(), nullable=True),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.Column('updated_at', TIMESTAMP, nullable=False),
    sa.CheckConstraint("status IN ('pending', 'confirmed', 'expired', 'void')", name=op.f('ck_physical_records_status')),
    sa.ForeignKeyConstraint(['guild_id'], ['guilds.id'], name=op.f('fk_physical_records_guild_id_guilds'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_physical_records_hand_id_hands'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_physical_records'))
    )
    op.create_index('ix_physical_records_guild', 'physical_records', ['guild_id', 'created_at'])
    op.create_index('ix_physical_records_status_expires', 'physical_records', ['status', 'expires_at'])

    op.create_table('rating_history',
    sa.Column('id', BIG_ID, autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('is_ai', sa.Boolean(), nullable=False),
    sa.Column('hand_id', sa.BigInteger(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('created_at', TIMESTAMP, nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_rating_history_hand_id_hands'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_history'))
    )
    op.create_index('ix_rating_history_hand', 'rating_history', ['hand_id'])
    op.create_index('ix_rating_history_player', 'rating_history', ['guild_id', 'user_id', 'variant', 'created_at'])



def downgrade() -> None:
    op.drop_index('ix_rating_history_player', table_name='rating_history')
    op.drop_index('ix_rating_history_hand', table_name='rating_history')

    op.drop_table('rating_history')
    op.drop_index('ix_physical_records_status_expires', table_name='physical_records')
    op.drop_index('ix_physical_records_guild', table_name='physical_records')

    op.drop_table('physical_records')
    op.drop_index('ix_hand_results_player', table_name='hand_results')
    op.drop_index('ix_hand_results_game', table_name='hand_results')
    op.drop_index('ix_hand_results_board_time', table_name='hand_results')
    op.drop_index('ix_hand_results_board', table_name='hand_results')

    op.drop_table('hand_results')
    op.drop_table('snapshots')
    op.drop_index('ix_hands_guild_created', table_name='hands')

    op.drop_table('hands')
    op.drop_table('actions')
    op.drop_table('seasons')
    op.drop_index('ix_games_status_updated', table_name='games')
    op.drop_index('ix_games_guild_updated', table_name='games')

    op.drop_table('games')
    op.drop_table('ratings')
    op.drop_table('players')
    op.drop_table('guilds')

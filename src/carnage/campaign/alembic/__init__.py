"""Alembic environment of Carnage's database (web tables and campaigns), run from code."""

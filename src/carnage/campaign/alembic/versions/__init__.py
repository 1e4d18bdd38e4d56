"""Carnage's schema migrations, oldest first."""

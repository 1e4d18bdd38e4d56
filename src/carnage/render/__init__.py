"""Carnage render layer."""

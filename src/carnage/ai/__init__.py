"""Carnage ai layer."""

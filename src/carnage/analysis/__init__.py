"""Carnage analysis layer."""

"""Carnage campaign layer."""

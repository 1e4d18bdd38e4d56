"""Gaslands: Legacy."""

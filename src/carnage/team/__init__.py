"""Carnage team layer."""

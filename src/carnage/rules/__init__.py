"""Carnage rules layer."""

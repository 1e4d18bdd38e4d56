"""Carnage engine layer."""

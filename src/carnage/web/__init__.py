"""Carnage web layer."""

"""Refuelled's campaign modes: Seasons, Televised Seasons, Savage Highways."""

"""Refuelled's heuristic bot and the advice it reads."""

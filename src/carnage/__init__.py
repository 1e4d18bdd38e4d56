"""Carnage: engine, virtual table and toolbox for Gaslands: Refuelled."""

__version__ = "0.1.0"

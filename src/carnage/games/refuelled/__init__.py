"""Gaslands: Refuelled: its flow of play (``engine``), special rules (``rules``),
scenarios, set-up, heuristic bot (``ai``), odds and campaign modes."""

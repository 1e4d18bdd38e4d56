"""Devil's Run: Route 666, a square-grid car-combat game on a rolling road, on the kernel."""

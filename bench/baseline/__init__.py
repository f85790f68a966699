"""Hand-written plain-Python baseline implementations of the benchmark games."""

"""Benchmarks: the engine against hand-written Python (`python -m bench`)."""

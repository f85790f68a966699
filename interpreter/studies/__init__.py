"""Stage 5, studies: many games, and players that choose by themselves.

Agents, random playouts without the API (playout), one watched game (playtest) and the design
measures read from it (measures, summary, stats), running jobs in this process, in worker
processes or on Dask (parallel, dist), and the commands built on them: simulate, lint, compare.

It may import every stage below it; nothing imports it but the package root and the front ends.
"""

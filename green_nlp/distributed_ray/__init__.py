"""Bulk prediction and teacher labeling on a Ray cluster (`--ray [ADDRESS]`).

Ray is optional: `options` (the command-line switches) imports nothing heavy, and only the modules
that run work on the cluster (`pool`, `lines`, `teacher`) import `ray`, when `--ray` is given.
Why Ray and not a home-made scheduler: the same code runs on a laptop and on a cluster, and Ray
restarts a dead actor and re-runs the calls it had not answered (actor fault tolerance).
"""

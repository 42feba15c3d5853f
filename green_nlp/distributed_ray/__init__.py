"""Bulk prediction and teacher labeling on a Ray cluster (`--ray [ADDRESS]`).

Ray is optional (the ray extra): every module here imports without it, as `--include-package
green_nlp` imports them all; `ray` is imported when `--ray` runs work (`options.require_ray`), and
the actor classes become Ray actor classes then (`pool.remote_class`), not at class definition.
Why Ray and not a home-made scheduler: the same code runs on a laptop and on a cluster, and Ray
restarts a dead actor and re-runs the calls it had not answered (actor fault tolerance).
"""

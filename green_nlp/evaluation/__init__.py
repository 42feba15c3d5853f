"""Evaluation beside the models' own metrics (e.g. the CoNLL 2018 shared-task scorer)."""

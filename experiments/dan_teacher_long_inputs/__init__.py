"""dan_teacher_long_inputs study: see experiments/README.md."""

"""Document generators: they read benchmarks/results/ and write Markdown, plots and model cards;
they measure nothing, so they run in seconds and need no data or trained runs."""

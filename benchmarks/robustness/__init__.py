"""Bad input through the real loaders and commands: every case in tests/bad_inputs/ judged."""

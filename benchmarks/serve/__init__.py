"""Serving at scale: `green-nlp serve` under concurrent load, and bulk prediction on Ray actors."""

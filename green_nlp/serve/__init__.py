"""`green-nlp serve`: the torch-free runtime's models over HTTP, micro-batched.

    green-nlp serve en-ewt-parser --port 8080
    curl -s localhost:8080/v1/en-ewt-parser/parse -d '{"text": "The cat sat on the mat."}'

Modules: `server` (the command), `app` (routes), `batcher` (micro-batching), `requests`
(checking request bodies), `models` (loading and describing models), `render` (the page's
drawings), `import_guard` (no torch in the server process). See docs/serving.md.
"""


def main(argv=None) -> int:
    """The `green-nlp serve` command; arguments as after `serve`."""
    from green_nlp.serve.server import main as serve_main

    return serve_main(argv)

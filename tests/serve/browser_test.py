"""The page in a real browser: Debian's headless Chromium, driven by Playwright's Python package
(its own browser downloads are never used). With GREEN_NLP_UPDATE_SCREENSHOT=1 it also rewrites
benchmarks/results/serve_page.png, the screenshot the docs show; otherwise a run leaves the tree clean."""

import os
import shutil

import pytest

from tests.conftest import REPO_ROOT
from tests.serve.conftest import CLASSIFIER, PARSER, TAGGER

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOT = REPO_ROOT / "benchmarks" / "results" / "serve_page.png"
TEXT = "The quick brown fox jumps over the lazy dog near the river bank."

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Debian's chromium is not installed (`apt-get install chromium`); the page's browser test needs it",
)


@pytest.fixture(scope="module")
def page(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.requested = []
        tab.on("request", lambda request: tab.requested.append(request.url))
        tab.goto(server.url + "/")
        tab.wait_for_selector(f"#model option[value='{PARSER}']", state="attached")
        yield tab
        browser.close()


def run(page, model: str, text: str) -> None:
    page.select_option("#model", model)
    page.fill("#text", text)
    page.click("#submit")
    page.wait_for_function(
        "document.getElementById('status').textContent.includes(' ms') || "
        "document.getElementById('status').className === 'error'"
    )


def test_the_page_draws_the_dependency_tree(page, parser):
    run(page, PARSER, TEXT)
    expected = parser.parse(TEXT).to_json()["sentences"][0]
    words = page.locator("#view svg.displacy tspan.displacy-word").all_text_contents()
    arcs = page.locator("#view svg.displacy path.displacy-arc").count()
    labels = page.locator("#view svg.displacy textPath.displacy-label").all_text_contents()
    assert words == expected["words"]
    assert arcs == sum(head != 0 for head in expected["heads"])  # every word but the root has an arc
    assert sorted(labels) == sorted(rel for rel, head in zip(expected["deprels"], expected["heads"]) if head)
    shot = page.screenshot(full_page=True)
    assert shot.startswith(b"\x89PNG")
    if os.environ.get("GREEN_NLP_UPDATE_SCREENSHOT") == "1":
        SCREENSHOT.write_bytes(shot)


def test_the_page_shows_class_probabilities(page, dan_folder):
    run(page, CLASSIFIER, "a gorgeous, witty and charming film")
    rows = page.locator("#view .bar-row")
    assert rows.count() == 2  # the fixture DAN's two SST-2 classes
    assert page.locator("#view .bar-row.chosen").count() == 1
    widths = [
        float(style.split(":")[1].rstrip("%"))
        for style in page.locator("#view .bar-fill").evaluate_all("nodes => nodes.map(n => n.getAttribute('style'))")
    ]
    assert abs(sum(widths) - 100) < 0.5


def test_the_page_highlights_entities(page, client):
    text = "EU rejects German call to boycott British lamb ."
    run(page, TAGGER, text)
    spans = client.post(f"/v1/{TAGGER}/tag", json={"text": text}).json()["spans"]
    marks = page.locator("#view mark.entity")
    assert marks.count() == len(spans) > 0
    assert [" ".join(m.split()[:-1]) for m in marks.all_inner_texts()] == [span["text"] for span in spans]


def test_the_page_shows_what_to_fix(page):
    run(page, PARSER, "word " * 700)
    assert page.get_attribute("#status", "class") == "error"
    assert "limit of 3,000" in page.inner_text("#status")


def test_the_page_fetched_only_from_its_server(page, server):
    assert page.requested and all(url.startswith(server.url + "/") for url in page.requested), page.requested

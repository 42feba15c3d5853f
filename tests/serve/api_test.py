"""Every endpoint of a real server, answers checked against the runtime run in this process."""

import re
from pathlib import Path

import pytest

from green_nlp.runtime import load
from tests.serve.conftest import CLASSIFIER, PARSER, TAGGER

SENTENCES = ["The cat sat on the mat.", "Rivers flow to the sea. The sea is large.", "Dogs bark"]


@pytest.fixture(scope="module")
def classifier(dan_folder):
    return load(dan_folder, threads=1)


def test_health_and_models(client, dan_folder):
    health = client.get("/health").json()
    assert health["status"] == "ok" and set(health["models"]) == {PARSER, CLASSIFIER, TAGGER}
    assert health["heavy_modules"] == []
    models = {model["name"]: model for model in client.get("/v1/models").json()["models"]}
    assert models[PARSER]["family"] == "parser" and models[PARSER]["tasks"] == ["parse"]
    assert "CC BY-SA 4.0" in models[PARSER]["license"]  # UD English-EWT's terms, whatever else the card adds
    assert models[PARSER]["metrics"]["UAS (runtime, int8)"]
    assert models[CLASSIFIER]["family"] == "classifier" and models[CLASSIFIER]["tasks"] == ["classify"]
    assert models[CLASSIFIER]["labels"] == load(dan_folder).labels
    assert models[TAGGER]["family"] == "tagger" and models[TAGGER]["tasks"] == ["tag"]


def test_parse_one_text_is_the_runtimes_json(client, parser):
    for text in SENTENCES:
        response = client.post(f"/v1/{PARSER}/parse", json={"text": text})
        assert response.status_code == 200
        assert response.json() == parser.parse(text).to_json()


def test_parse_conllu_on_request(client, parser):
    expected = parser.parse(SENTENCES[1]).to_conllu()
    by_field = client.post(f"/v1/{PARSER}/parse", json={"text": SENTENCES[1], "format": "conllu"})
    by_query = client.post(f"/v1/{PARSER}/parse?format=conllu", json={"text": SENTENCES[1]})
    by_accept = client.post(f"/v1/{PARSER}/parse", json={"text": SENTENCES[1]}, headers={"Accept": "text/x-conllu"})
    for response in (by_field, by_query, by_accept):
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
        assert response.text == expected
    many = client.post(f"/v1/{PARSER}/parse", json={"texts": SENTENCES, "format": "conllu"}).json()
    assert [slot["conllu"] for slot in many["results"]] == [parser.parse(t).to_conllu() for t in SENTENCES]


def test_parse_many_texts_in_order(client, parser):
    response = client.post(f"/v1/{PARSER}/parse", json={"texts": SENTENCES})
    assert response.status_code == 200
    body = response.json()
    assert body["errors"] == 0 and body["results"] == [doc.to_json() for doc in parser.parse_many(SENTENCES)]


def test_classify(client, classifier):
    texts = ["a gorgeous, witty film", "dull and tedious", ""]
    one = client.post(f"/v1/{CLASSIFIER}/classify", json={"text": texts[0]})
    assert one.status_code == 200 and one.json() == classifier.classify(texts[0]).to_json()
    many = client.post(f"/v1/{CLASSIFIER}/classify", json={"texts": texts}).json()
    assert many["results"][:2] == [c.to_json() for c in classifier.classify_many(texts[:2])]
    # the runtime's error for an empty text, in its slot (issue 44: it was classified as the prior)
    assert many["results"][2] == {"error": '"texts"[2]: text is empty: nothing to classify', "status": 422}
    assert many["errors"] == 1


def test_tag_json_and_conll(client, tagger_dir):
    tagger = load(tagger_dir, threads=1)
    texts = ["EU rejects German call to boycott British lamb .", "Peter Blackburn visited Brussels ."]
    one = client.post(f"/v1/{TAGGER}/tag", json={"text": texts[0]})
    assert one.status_code == 200 and one.json() == tagger.tag(texts[0]).to_json()
    conll = client.post(f"/v1/{TAGGER}/tag", json={"text": texts[1], "format": "conll"})
    assert conll.text == tagger.tag(texts[1]).to_conll()
    many = client.post(f"/v1/{TAGGER}/tag", json={"texts": texts}).json()
    assert [slot["words"] for slot in many["results"]] == [tagger.tag(t).to_json()["words"] for t in texts]
    html = client.post(f"/v1/{TAGGER}/render", json={"text": texts[0]}).json()
    assert html["html"].count('class="entity"') == len(html["result"]["spans"])


def test_render_draws_the_parse_and_the_bars(client, parser):
    text = "The <b>cat</b> sat."
    body = client.post(f"/v1/{PARSER}/render", json={"text": text}).json()
    expected = parser.parse(text).to_json()["sentences"][0]
    assert body["result"]["sentences"][0] == expected
    labels = re.findall(r'class="displacy-label"[^>]*>([^<]+)<', body["html"])
    assert sorted(labels) == sorted(rel for rel, head in zip(expected["deprels"], expected["heads"]) if head)
    assert "<b>" not in body["html"] and "cat&lt;/b" in body["html"]  # the words are escaped
    bars = client.post(f"/v1/{CLASSIFIER}/render", json={"text": "a witty film"}).json()
    assert bars["html"].count('class="bar-row') == len(bars["result"]["label_names"])


def test_page_fetches_nothing_from_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<script" in page.text and "/v1/models" in page.text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//""", page.text)


def test_the_server_process_has_no_torch(server):
    try:
        mapped = Path(f"/proc/{server.pid}/maps").read_text()
    except OSError:
        pytest.skip("no /proc: cannot list the server's shared libraries on this system")
    assert "libtorch" not in mapped and "/torch/" not in mapped


def test_served_classifiers_can_average_a_texts_sentences():
    from green_nlp.serve.models import load_models
    from green_nlp.serve.server import build_parser

    assert build_parser().parse_args(["en-sst2-sentiment", "--split-sentences"]).split_sentences
    assert not build_parser().parse_args(["en-sst2-sentiment"]).split_sentences
    texts = ["A dull, lifeless plot. The acting is wooden. But the music is wonderful.", "Great."]
    split = load_models(["en-sst2-sentiment"], split_sentences=True)["en-sst2-sentiment"]
    whole = load_models(["en-sst2-sentiment"])["en-sst2-sentiment"]
    runtime = load("en-sst2-sentiment", threads=1)
    assert [r.to_json() for r in split.predictor("classify")(texts)] == [
        r.to_json() for r in runtime.classify_many(texts, split_sentences=True)
    ]
    unsplit = [r.to_json() for r in runtime.classify_many(texts)]
    assert [r.to_json() for r in whole.predictor("classify")(texts)] == unsplit
    assert split.predictor("classify")(texts)[0].to_json() != whole.predictor("classify")(texts)[0].to_json()


def test_served_classifiers_can_run_on_the_numba_engine():
    pytest.importorskip("numba", reason="the numba engine needs numba (pip install 'green_nlp[numba]')")
    from green_nlp.serve.models import load_models
    from green_nlp.serve.server import build_parser

    assert build_parser().parse_args(["en-sst2-sentiment", "--engine", "numba"]).engine == "numba"
    assert build_parser().parse_args(["en-sst2-sentiment"]).engine == "onnxruntime"
    texts = ["A dull, lifeless plot.", "Great.", "zzzz qqqq"]
    served = load_models(["en-sst2-sentiment"], engine="numba")["en-sst2-sentiment"]
    assert served.runtime.engine == "numba"
    reference = load("en-sst2-sentiment", threads=1).set_engine("numba")
    assert [r.to_json() for r in served.predictor("classify")(texts)] == [
        r.to_json() for r in reference.classify_many(texts)
    ]

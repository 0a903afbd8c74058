"""geotruth.score is geotruth score: one computation, the same result."""

import json

import geotruth
from conftest import DATA, FIXTURES, ROOT

GEPBENCH = [FIXTURES / "gepbench" / name for name in ("rules.json", "location.jsonl", "size.jsonl")]
RESPONSES = [ROOT / "examples" / "responses" / name for name in ("model_a.jsonl", "model_b.jsonl")]


def test_python_scores_equal_the_cli_json(cli, tmp_path):
    table = cli("score", "--from", "gepbench", *GEPBENCH, "--responses", *RESPONSES,
                "--json", tmp_path / "scores.json", "--html", tmp_path / "scores.html")
    written = json.loads((tmp_path / "scores.json").read_text())
    assert geotruth.score(GEPBENCH, RESPONSES, format="gepbench") == written
    assert geotruth.score_table(written) == table
    assert geotruth.score_page(written) == (tmp_path / "scores.html").read_text()


def test_responses_given_as_python_rows():
    rows = [{"question_id": "tangram-inscribed-triangle/letters", "response": "The answer is B."},
            {"question_id": "tangram-inscribed-triangle/circles", "response": "two"},
            json.dumps({"question_id": "tangram-one-cevian/triangles", "response": "3 triangles"})]
    scores = geotruth.score(DATA, {"mine": rows})
    model = scores["models"][0]
    assert model["name"] == "mine"
    # letters B = 4 right; circles "two" is C, the annotation is B (1); triangles 3 = B right.
    assert model["by_kind"]["count/letters"]["all"] == {"n": 5, "correct": 1, "accuracy": 0.2}
    assert model["by_kind"]["count/circles"]["all"]["correct"] == 0
    assert model["by_kind"]["count/triangles"]["all"]["correct"] == 1
    assert model["all"]["correct"] == 2 and model["responses"]["missing"] == 32
    assert model["responses"]["by_method"] == {"marker": 1, "number": 2}


def test_extract_answer_shows_the_rule():
    options = ["upper left", "upper right", "lower left", "lower right"]
    assert geotruth.extract_answer("The answer is B, not C.", options) == {"method": "marker", "option": "B",
                                                                          "value": ""}
    assert geotruth.extract_answer("It sits in the lower left.", options)["option"] == "C"
    assert geotruth.extract_answer("C. A circle.", ["a", "b", "c", "d"])["option"] == "C"
    assert geotruth.extract_answer("There are 4 letters: A, B, C, D.", ["3", "4", "5", "6"],
                                   point_letters="ABCD")["option"] == "B"
    assert geotruth.extract_answer("twelve", ask="count") == {"method": "number", "option": None, "value": "12"}

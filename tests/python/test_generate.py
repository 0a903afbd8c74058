"""geotruth.generate against `geotruth generate`: the same items, byte for byte, and certified."""

import json
from pathlib import Path

import pytest

import geotruth
from conftest import jsonl


@pytest.mark.parametrize("family,level", [("gepbench", "easy"), ("gepbench", "hard"), ("tangram", "medium")])
def test_generate_gives_the_items_the_command_writes(cli, tmp_path, family, level):
    out = tmp_path / "items.jsonl"
    cli("generate", "--family", family, "--level", level, "-n", 4, "--seed", 12, "-o", out)
    written = jsonl(out)
    made = geotruth.generate(family, 4, level=level, seed=12)
    assert [item["scene"] for item in made] == written
    # Item i depends on (seed, i) alone: the third item alone is the third of the run.
    assert geotruth.generate(family, 1, level=level, seed=12, start=3)[0]["scene"] == written[2]
    # Every question ok by the audit, and no truth ambiguous.
    for verdict in geotruth.audit([json.dumps(s) for s in written]):
        assert verdict["verdict"] == "ok", verdict
    for scene in written:
        assert not any(t["ambiguous"] for t in geotruth.analyze(scene)["truths"])


def test_gepbench_items_carry_the_engines_rules_and_rows(cli, tmp_path):
    made = geotruth.generate("gepbench", 3, level="easy", seed=5)
    out = tmp_path / "engine"
    cli("generate", "--family", "gepbench", "-n", 3, "--seed", 5, "--format", "gepbench", "-o", out)
    assert [item["rules"] for item in made] == json.loads((out / "rules.json").read_text())
    rows = jsonl(out / "vqa.jsonl")
    assert [dict(row, image_id=i) for i, item in enumerate(made) for row in item["vqa"]] == rows


def test_pictures_come_back_certified(tmp_path):
    items = geotruth.generate("tangram", 2, level="easy", seed=3, picture={"style": "sketch"})
    for item in items:
        assert item["image"][:4] == b"\x89PNG"
        assert set(item) >= {"scene", "attempts", "rejected", "dropped"}


def test_bad_arguments_say_what_is_expected():
    with pytest.raises(ValueError, match="level"):
        geotruth.generate("gepbench", 1, level="medium")
    with pytest.raises(ValueError, match="family"):
        geotruth.generate("shapes", 1)
    with pytest.raises(TypeError, match="picture option"):
        geotruth.generate("tangram", 1, picture={"colour": 3})

"""The Python API gives what the command line gives, on Python objects."""

import json
import pydoc
import threading
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import geotruth
from conftest import DATA, FIXTURES, jsonl

SCENES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def without_place(record):
    return {k: v for k, v in record.items() if k not in ("line", "file", "record")}


def test_analyze_returns_the_cli_record_for_every_embedded_scene(cli):
    printed = jsonl(cli("analyze", DATA))
    assert len(printed) == len(SCENES) == 12
    for scene, record in zip(SCENES, printed):
        assert geotruth.analyze(scene) == without_place(record)
        assert list(geotruth.analyze(scene)) == list(without_place(record))  # same key order
    # The JSON text of a scene is a scene too.
    assert geotruth.analyze(DATA.read_text().splitlines()[0]) == without_place(printed[0])


@pytest.mark.parametrize("options, flags", [({}, []), ({"any_vertex": True, "quadrilaterals": True},
                                                       ["--any-vertex", "--quadrilaterals"]),
                                            ({"list": True, "quadrilaterals": True}, ["--list", "--quadrilaterals"]),
                                            ({"mode": "declared"}, ["--mode", "declared"])])
def test_count_returns_the_cli_record_for_every_embedded_scene(cli, options, flags):
    printed = jsonl(cli("count", DATA, *flags))
    assert [geotruth.count(scene, **options) for scene in SCENES] == [without_place(r) for r in printed]


def test_count_lists_what_it_counts_and_analyze_names_the_same_figures():
    for scene in SCENES:
        counted = geotruth.count(scene, list=True, quadrilaterals=True)
        figures = counted["figures"]
        assert len(figures["segments"]) == counted["segments"]
        assert len(figures["triangles"]) == counted["triangles"]
        assert len(figures["quadrilaterals"]) == counted["quadrilaterals"]
        assert geotruth.analyze(scene)["figures"] == figures


def test_audit_yields_the_verdicts_and_scene_records_of_an_audit_directory(cli, tmp_path):
    cli("audit", DATA, "-o", tmp_path / "out")
    verdicts = jsonl(tmp_path / "out" / "verdicts.jsonl")
    assert len(verdicts) == 35
    assert list(geotruth.audit(DATA)) == verdicts
    for threads in (1, 2):
        assert list(geotruth.audit(SCENES, threads=threads)) == verdicts
    # With scenes=True each scene's findings record follows its verdicts.
    records = list(geotruth.audit(iter(SCENES), scenes=True))
    assert [r for r in records if "verdict" in r] == verdicts
    assert [r for r in records if "findings" in r] == jsonl(tmp_path / "out" / "scenes.jsonl")


def test_audit_of_an_imported_dataset_chooses_the_band_as_the_cli_does(cli, tmp_path):
    annotations = FIXTURES / "geometry3k" / "diagram_logic_forms_sample.json"
    cli("audit", "--from", "geometry3k", annotations, "-o", tmp_path / "out")
    expected = jsonl(tmp_path / "out" / "scenes.jsonl")
    audit = geotruth.audit(str(annotations), format="geometry3k", scenes=True)
    assert [r for r in audit if "findings" in r] == expected  # the auto band of the whole file decides
    written = json.loads((tmp_path / "out" / "bands.json").read_text())
    assert audit.bands.source == written["source"] == "auto"
    keys = ("eps_num_px", "eps_vis_px", "source", "reason")
    assert {k: audit.bands.to_dict()[k] for k in keys} == {k: written[k] for k in keys}


def test_a_bad_scene_raises_error_with_pointer_and_message():
    with pytest.raises(geotruth.Error) as caught:
        geotruth.analyze({"id": "t", "points": [{"id": "A", "at": [1, 2]}], "lines": [{"through": ["A", "Q"]}]})
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.pointer == "/lines/0/through/1"
    assert error.message == 'unknown point label "Q" (expected the id of a point in /points)'
    assert str(error) == "/lines/0/through/1: " + error.message
    with pytest.raises(geotruth.Error, match="not JSON|expected"):
        geotruth.count("{not json")
    with pytest.raises(TypeError):
        geotruth.analyze(42)


def test_audit_raises_or_yields_at_unreadable_records(cli, tmp_path):
    bad = FIXTURES / "two_valid_three_bad.jsonl"
    cli("audit", bad, "-o", tmp_path / "out", codes=(1,))
    errors = [r for r in jsonl(tmp_path / "out" / "scenes.jsonl") if "error" in r]
    assert len(errors) == 3
    assert [r for r in geotruth.audit(bad, errors="yield") if "error" in r] == errors
    verdicts = geotruth.audit(bad)
    with pytest.raises(geotruth.Error) as caught:
        list(verdicts)
    first = errors[0]
    assert (caught.value.file, caught.value.line, caught.value.pointer) == (
        first["file"], first["line"], first["error"]["pointer"])


def test_numbers_are_read_exactly_from_python_values():
    scene = {"id": "exact", "points": [{"id": "A", "at": [Fraction(700, 3), 0.1]},
                                      {"id": "B", "at": [Decimal("12.5"), 3]}]}
    points = geotruth.analyze(scene)["scene"]["points"]
    assert points[0]["at"] == ["700/3", 0.1]  # 0.1 stays 1/10, written back as 0.1
    assert points[1]["at"] == [12.5, 3]


def test_bands_are_chosen_and_reported():
    band = geotruth.Bands(eps_num_px=1, eps_vis_px=2)
    assert geotruth.analyze(SCENES[0], bands=band)["bands"] == {"eps_num_px": 1.0, "eps_vis_px": 2.0,
                                                                "source": "option"}
    g3k = geotruth.Bands.for_dataset("geometry3k")
    assert (g3k.eps_num_px, g3k.eps_vis_px, g3k.source) == (1.5, 4.0, "dataset:geometry3k")
    with pytest.raises(ValueError):
        geotruth.Bands(eps_num_px=3, eps_vis_px=1)
    # Exact scenes have exact residuals: the estimate keeps the floor and says why.
    estimated = geotruth.Bands.estimate(SCENES)
    assert (estimated.eps_num_px, estimated.eps_vis_px) == (0.5, 3.0)
    assert estimated.reason


def test_import_records_yields_what_geotruth_import_writes(cli):
    files = [FIXTURES / "gepbench" / name for name in ("rules.json", "location.jsonl", "size.jsonl")]
    assert list(geotruth.import_records("gepbench", files)) == jsonl(cli("import", "--from", "gepbench", *files))
    with pytest.raises(ValueError, match="unknown format"):
        geotruth.import_records("nope", files)


def test_ai2d_with_its_categories_as_the_cli_reads_it(cli, tmp_path):
    categories = tmp_path / "categories.json"
    categories.write_text(json.dumps({"food_chain.png": "foodChainsWebs", "series_loop.png": "circuits"}))
    annotations = FIXTURES / "ai2d"
    printed = jsonl(cli("import", "--from", "ai2d", annotations, "--categories", categories))
    assert list(geotruth.import_records("ai2d", annotations, categories=categories)) == printed
    cli("audit", "--from", "ai2d", annotations, "--categories", categories, "-o", tmp_path / "out")
    audit = geotruth.audit(str(annotations), format="ai2d", categories=categories)
    assert list(audit) == jsonl(tmp_path / "out" / "verdicts.jsonl")


def test_audit_reads_other_formats_from_paths_given_as_text(cli, tmp_path):
    files = [str(FIXTURES / "gepbench" / name) for name in ("rules.json", "location.jsonl", "size.jsonl")]
    cli("audit", "--from", "gepbench", *files, "-o", tmp_path / "out")
    assert list(geotruth.audit(files, format="gepbench")) == jsonl(tmp_path / "out" / "verdicts.jsonl")
    with pytest.raises(TypeError, match="reads files"):
        geotruth.audit(iter([{}]), format="gepbench")


def test_render_gives_the_bytes_geotruth_render_writes(cli, tmp_path):
    (tmp_path / "one.jsonl").write_text(json.dumps(SCENES[0]) + "\n")
    record = jsonl(cli("render", tmp_path / "one.jsonl", "-o", tmp_path / "images"))[0]
    png = geotruth.render(SCENES[0])
    assert png == Path(record["image"]).read_bytes()
    assert geotruth.render(SCENES[0], "jpeg")[:3] == b"\xff\xd8\xff"
    numpy = pytest.importorskip("numpy")
    pixels = geotruth.render(SCENES[0], "array")
    assert isinstance(pixels, numpy.ndarray) and pixels.dtype == numpy.uint8
    assert pixels.shape == (record["height"], record["width"], 3)
    assert pixels.min() < 100 and pixels.max() == 255  # ink on a white page


def test_the_gil_is_released_while_cpp_works():
    # 120 lines across the frame in general position: counting the triangles their crossings form
    # takes a while in C++; another Python thread keeps running meanwhile.
    points, lines = [], []
    for i in range(120):
        points += [{"id": f"P{i}", "at": [0, (37 * i) % 631 + 3]}, {"id": f"Q{i}", "at": [640, (101 * i + 200) % 617 + 5]}]
        lines.append({"through": [f"P{i}", f"Q{i}"]})
    scene = {"id": "fan", "points": points, "lines": lines}
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    begin = time.perf_counter()
    geotruth.count(scene, any_vertex=True)
    end = time.perf_counter()
    stop.set()
    ticker.join()
    during = [t for t in ticks if begin < t < end]
    assert end - begin > 0.05, "the scene is too easy to show anything"
    assert len(during) > 10


def test_help_docstrings_and_type_stubs():
    text = pydoc.render_doc(geotruth, renderer=pydoc.plaintext)
    for name in geotruth.__all__:
        assert name in text
        assert getattr(geotruth, name).__doc__
    package = Path(geotruth.__file__).parent
    assert (package / "__init__.pyi").is_file() and (package / "py.typed").is_file()
    assert geotruth.__version__

"""geotruth: exact ground truth for geometry-perception benchmark items, from Python.

The same computations as the ``geotruth`` command, on Python objects:

- ``analyze(scene)`` and ``count(scene)`` return the records ``geotruth analyze`` and
  ``geotruth count`` print (without the input's ``line``/``file``);
- ``audit(records)`` yields the verdict records of ``verdicts.jsonl``, audited on ``threads``
  threads while you consume them;
- ``import_records(format, path)`` yields native scenes from Geometry3K, PGDP5K, line lists or
  GePBench files, as ``geotruth import`` writes them;
- ``render(scene)`` draws a scene (PNG or JPEG bytes, or a NumPy array);
- ``score(data, responses)`` scores model outputs on all items, on the items audited ``ok`` and
  against geotruth's truth where the annotated answer is ``wrong`` (``geotruth score``).

A scene is a dict (as ``json.loads`` gives it) or its JSON text. Numbers are read exactly from
their decimal text: a Python float is read as its shortest repr (0.1 is 1/10),
``fractions.Fraction`` and ``decimal.Decimal`` are exact, NumPy numbers are accepted. A scene
geotruth cannot read raises ``geotruth.Error`` (a ``ValueError``) naming the JSON pointer and
what was expected. The C++ work runs without the GIL.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, Union

from . import _geotruth
from ._geotruth import Bands

__version__: str = _geotruth.__version__
#: The commit this build was made from (40 hex digits, "+modified" when the checkout had changes),
#: or "" when it was not built from a git checkout.
__commit__: str = _geotruth.__commit__

__all__ = [
    "Bands",
    "Error",
    "analyze",
    "audit",
    "count",
    "extract_answer",
    "generate",
    "import_records",
    "render",
    "score",
    "score_page",
    "score_table",
]

Scene = Union[Mapping[str, Any], str, bytes]
Path = Union[str, "os.PathLike[str]"]


class Error(ValueError):
    """A record geotruth cannot read, or one past its work limit.

    Attributes: ``message`` (what was found and what was expected), ``pointer`` (an RFC 6901
    JSON pointer into the record, "" for the whole record), ``file`` and ``line`` (where the
    record came from; "" and 0 for a scene given as a Python object).
    """

    def __init__(self, message: str, pointer: str = "", file: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file else ""
        return f"{where}{self.pointer or '/'}: {self.message}"


_geotruth._set_error_class(Error)


def _json_default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Decimal):
        return str(value)
    tolist = getattr(value, "tolist", None)  # NumPy scalars and arrays
    if callable(tolist):
        return tolist()
    raise TypeError(f"a {type(value).__name__} is not a JSON value")


_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_json_default)


def _text(scene: Scene) -> str | bytes:
    """A scene's JSON text: dicts are encoded (floats as their shortest repr), text kept."""
    if isinstance(scene, (str, bytes)):
        return scene
    if isinstance(scene, Mapping):
        return _encoder.encode(scene)
    raise TypeError(f"a scene is a dict or its JSON text, not a {type(scene).__name__}")


def _paths(records: Any, format: str) -> list[str] | None:
    """File paths when `records` names files: a str or os.PathLike, a list of os.PathLike, or for
    another format than "native" (whose records cannot be Python scenes) a list of str."""
    if isinstance(records, (str, os.PathLike)):
        return [os.fspath(records)]
    if isinstance(records, (list, tuple)) and records:
        names = (os.PathLike,) if format == "native" else (str, os.PathLike)
        if all(isinstance(r, names) for r in records):
            return [os.fspath(r) for r in records]
    if format != "native":
        raise TypeError(f'format "{format}" reads files: give a path or a list of paths')
    return None


def _fspath(path: Path | None) -> str:
    return "" if path is None else os.fspath(path)


def _bands_option(bands: Any) -> Any:
    if bands is None or isinstance(bands, (Bands, str)):
        return bands
    raise TypeError("bands must be a geotruth.Bands, 'auto', 'default' or None")


def _estimate(scenes: Iterable[Scene], dataset: str = "") -> Bands:
    """The ``auto`` band of some scenes: estimated from the residuals of their declared facts
    (points declared on lines and circles), floored at ``dataset``'s documented band."""
    return Bands._estimate((_text(s) for s in scenes), dataset)


Bands.estimate = staticmethod(_estimate)  # type: ignore[attr-defined]


def analyze(scene: Scene, *, mode: str = "merged", bands: Bands | None = None, **limits: Any) -> dict:
    """Parse, validate and analyze one scene: the record ``geotruth analyze`` prints for it.

    Returns ``{"id", "bands", "scene" (normalized), "incidence", "figures" (the segments, triangles
    and convex quadrilaterals formed by letters, by name), "conflicts", "doubtful", "notes",
    "relations"?, "truths"?}``. ``mode``: where incidences come from — "declared",
    "geometric" or "merged". ``bands``: the decision band (default: the scene's dataset's
    documented band). ``limits``: max_elements, max_depth, max_pairs, max_seconds, ….
    Raises ``geotruth.Error`` for a scene that cannot be read.
    """
    return _geotruth.analyze(_text(scene), mode, bands, limits)


def count(
    scene: Scene,
    *,
    mode: str = "merged",
    any_vertex: bool = False,
    quadrilaterals: bool = False,
    list: bool = False,
    bands: Bands | None = None,
    **limits: Any,
) -> dict:
    """Tangram counts of one scene: the record ``geotruth count`` prints for it.

    Returns ``{"id", "letters", "circles", "segments", "triangles", "quadrilaterals"?, "total",
    "difficulty", "mode", "bands", "conflicts", "doubtful", "notes", "figures"?}``. ``any_vertex``:
    triangles may have unlabelled crossings as vertices; ``quadrilaterals``: also count convex
    quadrilaterals; ``list``: also list the counted figures by their letters (``"figures":
    {"segments", "triangles", "quadrilaterals"}``, each a list of point-id lists, as
    ``count --list`` does). Raises ``geotruth.Error`` for a scene that cannot be read.
    """
    return _geotruth.count(_text(scene), mode, any_vertex, quadrilaterals, list, bands, limits)


def audit(
    records: Any,
    *,
    format: str = "native",
    categories: Path | None = None,
    bands: Bands | str | None = None,
    threads: int = 0,
    errors: str = "raise",
    scenes: bool = False,
    **limits: Any,
) -> Iterator[dict]:
    """Audit a dataset: yields the verdict records of ``verdicts.jsonl``, in input order.

    ``records``: a file path (str or os.PathLike; or a list of pathlib.Path, or of str for the
    other formats) read as ``format`` ("native" JSONL, "geometry3k", "pgdp", "linelist",
    "gepbench", "ai2d", "visonlyqa"), or any iterable of scenes (dicts or JSON texts), consumed as the audit
    goes. Each verdict is ``{"record", "scene", "question", "kind", "text"?, "template"?,
    "options"?, "verdict", "truth", "annotated", "reasons"}``. Records are audited on ``threads`` threads (0: all cores) ahead of the caller.

    ``categories``: AI2D's categories.json (as ``--categories``).
    ``bands``: a ``Bands``, "auto" or "default" (files only: as the command line chooses), or
    None: for files as the command line does, for Python scenes the first scene's dataset band.
    ``errors``: "raise" raises ``geotruth.Error`` at an unreadable record (iterating on continues
    with the next), "yield" yields its error record ``{"record", "line", "file", "error"}``.
    ``scenes``: also yield each scene's record of ``scenes.jsonl`` (its findings) after its
    verdicts. The iterator's ``bands`` attribute is the band in force (once the first record is
    read).
    """
    paths = _paths(records, format)
    texts = None if paths else (_text(r) for r in records)
    return _geotruth.audit(
        paths or [], texts, format, _fspath(categories), _bands_option(bands), threads, errors, scenes, limits
    )


def import_records(
    format: str, path: Path | list[Path], *, categories: Path | None = None, errors: str = "raise", **limits: Any
) -> Iterator[dict]:
    """Native scenes from another dataset's files, as ``geotruth import --from FORMAT`` writes them.

    ``format``: "geometry3k", "pgdp", "linelist", "gepbench" (``path`` then lists rules.json and
    the VQA JSONL files), "ai2d" (annotation files or a directory of them; ``categories``: AI2D's
    categories.json, as ``--categories``), "visonlyqa" (item files, or a split's folder such as
    ``dataset/val``: one scene per item, named by its id) or "native". Each scene carries ``extra.dataset`` (its
    band) and the importer's notes. ``errors``: "raise" (``geotruth.Error`` with file, line and
    pointer) or "yield" (the error record).
    """
    paths = [os.fspath(p) for p in path] if isinstance(path, (list, tuple)) else [os.fspath(path)]
    return _geotruth.import_records(format, paths, _fspath(categories), errors, limits)


def render(
    scene: Scene,
    format: str = "png",
    *,
    size: int = 0,
    stroke_width: float = 2.0,
    color: int | tuple[int, int, int] = 0,
    style: str = "clean",
    gaussian: float = 0.0,
    salt_pepper: float = 0.0,
    disturb: int = 0,
    perlin: float = 0.0,
    seed: int = 1,
    labels: bool = True,
    quality: int = 90,
    render_size: float = 0.0,
) -> Any:
    """Draw a scene as ``geotruth render`` does: PNG or JPEG bytes, or with ``format="array"`` a
    NumPy array (height × width × 3, uint8; needs NumPy).

    ``size``: pixels of the longer side (0: the frame's own pixels, 640 for the unit square);
    ``color``: a gray level or (r, g, b); ``style``: "clean" or "sketch"; noise: ``gaussian``
    (sigma in gray levels), ``salt_pepper`` (fraction of outline pixels), ``disturb`` (white
    strokes), ``perlin`` (amplitude inside closed shapes); ``seed`` for jitter and noise.
    """
    rgb = (color, color, color) if isinstance(color, int) else tuple(color)
    return _geotruth.render(
        _text(scene), format, size, stroke_width, rgb, style, gaussian, salt_pepper, disturb, perlin, seed, labels,
        quality, render_size,
    )


def generate(
    family: str = "gepbench",
    n: int = 10,
    *,
    level: str = "",
    seed: int = 1,
    start: int = 1,
    grid: bool = False,
    bands: Bands | None = None,
    max_attempts: int = 5000,
    picture: Mapping[str, Any] | None = None,
) -> list[dict]:
    """Items ``start`` … ``start + n - 1`` of the run for ``seed``, as ``geotruth generate`` makes
    them (item i depends on (seed, i) alone: the same bytes on any machine, in any order).

    ``family``: "gepbench" (``level`` "easy": 2-4 shapes, "hard": 5-8), "tangram" (``level``
    "easy", "medium" or "hard" by Tangram's total) or "diagram". Tangram and GePBench items are
    certified: every question ok by the audit, no truth ambiguous, every element visible at the
    render size (``bands``: the band certified at; default the dataset's). ``picture``: render
    options (``size``, ``stroke_width``, ``style`` "clean"/"sketch", ``gaussian``,
    ``salt_pepper``, ``disturb``, ``perlin``, ``color`` (a gray level), ``labels``, ``format``
    "png"/"jpeg", ``quality``): each item's picture is drawn and must agree with the cross-check,
    and comes back as ``"image"`` bytes.

    Returns one dict per item: ``{"item", "scene", "attempts", "rejected", "dropped"}`` (rejected
    candidates and uncertified questions by reason), with ``"rules"`` and ``"vqa"`` (the engine's
    rules.json entry and VQA rows) for GePBench, ``"image"`` with ``picture``, or ``"error"`` when
    no candidate passed in ``max_attempts``.
    """
    return _geotruth.generate(family, level, n, seed, start, grid, bands, max_attempts,
                              None if picture is None else dict(picture))


def score(
    data: Any,
    responses: Any,
    *,
    format: str = "native",
    categories: Path | None = None,
    bands: Bands | str | None = None,
    **limits: Any,
) -> dict:
    """Score model outputs on ``data`` three ways, as ``geotruth score --json`` writes them.

    ``data``: a path (or list of pathlib.Path) read as ``format``, or an iterable of scenes.
    ``responses``: a model-output path, a list of them, or a dict ``{model name: path or rows}``
    where rows are dicts (or JSON texts) ``{"question_id": "<scene>/<question>", "response":
    "..."}`` (or the dataset's own ids: GePBench's ``image_id`` and ``question_id``). A path is a
    JSONL file (such rows, or lmms-eval's ``--log_samples`` rows) or VLMEvalKit's predictions
    (``.xlsx``, ``.csv``, ``.tsv``) of a dataset ``geotruth export`` wrote (docs/export.md).
    Returns ``{"questions", "verdicts", "models": [{"name", "all", "clean", "corrected",
    "by_aspect", "by_kind", "by_difficulty", "responses", "missing", …}], "rank_changes",
    "bands", "records", "errors", "unreadable"}``; each score is ``{"n", "correct",
    "accuracy"}``. A question without a response counts as wrong and is listed under "missing".
    """
    if isinstance(responses, (str, os.PathLike)):
        responses = [responses]
    if isinstance(responses, Mapping):
        models = [
            (name, os.fspath(given) if isinstance(given, (str, os.PathLike)) else [_row(r) for r in given])
            for name, given in responses.items()
        ]
    else:
        models = [("", os.fspath(p)) for p in responses]
    paths = _paths(data, format)
    texts = None if paths else (_text(r) for r in data)
    return _geotruth.score(paths or [], texts, format, _fspath(categories), _bands_option(bands), models, limits)


def _row(row: Any) -> str:
    return row if isinstance(row, str) else _encoder.encode(row)


def score_table(scores: Mapping[str, Any]) -> str:
    """The scores (``score``'s result) as the table ``geotruth score`` prints."""
    return _geotruth.score_table(_encoder.encode(scores))


def score_page(scores: Mapping[str, Any]) -> str:
    """The scores as the self-contained HTML page ``geotruth score --html`` writes."""
    return _geotruth.score_page(_encoder.encode(scores))


def extract_answer(
    response: str, options: Iterable[str] = (), *, ask: str = "", answer: str = "", point_letters: str = ""
) -> dict:
    """The answer ``score`` reads in one response (docs/score.md, "Extraction").

    Returns ``{"method": "marker" | "letter" | "text" | "number" | "none", "option": letter or
    None, "value": the value for questions without options}``. ``ask`` ("count", …) and
    ``answer`` matter only without options; ``point_letters``: the scene's one-letter point
    names ("ABC"), which a lone letter in running text then names instead of an option.
    """
    return _geotruth.extract_answer(response, [str(o) for o in options], ask, answer, point_letters)

"""Type stubs of the geotruth package (see its docstrings and docs/python.md)."""

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, Union

__version__: str
__commit__: str
__all__: list[str]

Scene = Union[Mapping[str, Any], str, bytes]
Path = Union[str, os.PathLike[str]]
Records = Union[Path, list[os.PathLike[str]], Iterable[Scene]]
Mode = Literal["declared", "geometric", "merged"]
Format = Literal["native", "geometry3k", "pgdp", "linelist", "gepbench", "ai2d", "visonlyqa"]

class Error(ValueError):
    message: str
    pointer: str
    file: str
    line: int
    def __init__(self, message: str, pointer: str = "", file: str = "", line: int = 0) -> None: ...

class Bands:
    eps_num_px: float
    eps_vis_px: float
    render_size_px: float
    @property
    def source(self) -> str: ...
    @property
    def reason(self) -> str: ...
    def __init__(self, eps_num_px: float = 0.5, eps_vis_px: float = 3.0, render_size_px: float = 0.0) -> None: ...
    @staticmethod
    def for_dataset(dataset: str) -> Bands: ...
    @staticmethod
    def estimate(scenes: Iterable[Scene], dataset: str = "") -> Bands: ...
    def to_dict(self) -> dict[str, Any]: ...

class AuditIterator(Iterator[dict[str, Any]]):
    @property
    def bands(self) -> Bands | None: ...
    def __next__(self) -> dict[str, Any]: ...

def analyze(scene: Scene, *, mode: Mode = "merged", bands: Bands | None = None, **limits: Any) -> dict[str, Any]: ...
def count(
    scene: Scene,
    *,
    mode: Mode = "merged",
    any_vertex: bool = False,
    quadrilaterals: bool = False,
    list: bool = False,
    bands: Bands | None = None,
    **limits: Any,
) -> dict[str, Any]: ...
def audit(
    records: Records,
    *,
    format: Format = "native",
    categories: Path | None = None,
    bands: Bands | Literal["auto", "default"] | None = None,
    threads: int = 0,
    errors: Literal["raise", "yield"] = "raise",
    scenes: bool = False,
    **limits: Any,
) -> AuditIterator: ...
def import_records(
    format: Format,
    path: Path | list[Path],
    *,
    categories: Path | None = None,
    errors: Literal["raise", "yield"] = "raise",
    **limits: Any,
) -> Iterator[dict[str, Any]]: ...
def render(
    scene: Scene,
    format: Literal["png", "jpeg", "array"] = "png",
    *,
    size: int = 0,
    stroke_width: float = 2.0,
    color: int | tuple[int, int, int] = 0,
    style: Literal["clean", "sketch"] = "clean",
    gaussian: float = 0.0,
    salt_pepper: float = 0.0,
    disturb: int = 0,
    perlin: float = 0.0,
    seed: int = 1,
    labels: bool = True,
    quality: int = 90,
    render_size: float = 0.0,
) -> Any: ...
def generate(
    family: Literal["gepbench", "tangram", "diagram"] = "gepbench",
    n: int = 10,
    *,
    level: Literal["", "easy", "medium", "hard"] = "",
    seed: int = 1,
    start: int = 1,
    grid: bool = False,
    bands: Bands | None = None,
    max_attempts: int = 5000,
    picture: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]: ...
def score(
    data: Records,
    responses: Path | list[Path] | Mapping[str, Path | Iterable[Mapping[str, Any] | str]],
    *,
    format: Format = "native",
    categories: Path | None = None,
    bands: Bands | Literal["auto", "default"] | None = None,
    **limits: Any,
) -> dict[str, Any]: ...
def score_table(scores: Mapping[str, Any]) -> str: ...
def score_page(scores: Mapping[str, Any]) -> str: ...
def extract_answer(
    response: str, options: Iterable[str] = (), *, ask: str = "", answer: str = "", point_letters: str = ""
) -> dict[str, Any]: ...

"""examples/score_models.py runs, and its table is right by hand.

The sample (tests/fixtures/gepbench) has nine questions. The audit, checked by hand:
  gepbench-0/size-0  horizontal span of an ellipse with semi-axes 0.3 and 0.29 rotated 45°: its
                     true span is 2·√((0.3² + 0.29²)/2) = 0.590, nearest option D (0.57); the
                     engine annotated C (0.42, its box of the axis end points): wrong.
  gepbench-0/size-1  area of the square 0.2 × 0.2 = 0.04: A, ok.
  gepbench-0/size-2  vertical span of the segment (0.6, 0.8)–(0.9, 0.9): 0.1: A, ok.
  gepbench-1/location-0  triangle centroid (0.25, 0.183): lower left, C, ok.
  gepbench-1/location-1  "the circle" with two circles in the scene: invalid.
  gepbench-1/location-2  two circles: C, ok.
  gepbench-1/location-3  circles (2) appear more often than triangles (1): circle, A, ok.
  gepbench-1/location-4  "larger area than the triangle" (0.0375): the circles have 0.0314 and
                     0.0079, no option is right: invalid.
  gepbench-1/location-5  "directly above": not mapped, unsupported.
So 5 ok, 1 wrong, 2 invalid, 1 unsupported.

model_a reads: size-0 C (marker), size-1 A, size-2 B (last letter), location-0 "lower left" C,
location-1 B, location-2 "two" C, location-3 A (marker), location-4 "A circle." → circle A (the
article is no letter), location-5 no response.
  all items (annotated): right on size-0, size-1, location-0…4 = 7/9; wrong size-2, location-5.
  audited ok (size-1, size-2, location-0, -2, -3): 4/5 (size-2 wrong).
  corrected (size-0 against D): 6/9.
model_b reads: D, A, A, C, A, "2" → C, "circle" → A, B, A.
  all items: wrong on size-0 (D ≠ C), location-1 (A ≠ B), location-4 (B ≠ A): 6/9.
  audited ok: 5/5.   corrected (size-0 D right): 7/9.
Rank: on all items model_a (77.8 %) leads model_b (66.7 %); audited ok (80 % vs 100 %) and
corrected (66.7 % vs 77.8 %) reverse it.
"""

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def run_example():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), str(Path(__import__("geotruth").__file__)
                                                                                 .parents[1])) if p)
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "score_models.py")], capture_output=True,
                          text=True, env=env, cwd="/")
    assert done.returncode == 0, done.stderr
    return done.stdout


def rows(text, label):
    """The table rows of `label` (not the header, whose second word is no count)."""
    return [words for words in map(str.split, text.splitlines()) if words[:1] == [label] and "/" in words[1]]


def test_example_table_is_right_by_hand():
    out = run_example()
    assert "audited 9 questions: 2 invalid, 5 ok, 1 unsupported, 1 wrong" in out
    assert "gepbench-0/size-0: wrong (annotated C (0.42) but the truth is D (0.57))" in out
    model_a, model_b = out.split("== model_a")[1].split("== model_b")
    assert rows(model_a, "all") == [["all", "7/9", "77.8%", "4/5", "80.0%", "6/9", "66.7%"]]
    assert rows(model_b, "all") == [["all", "6/9", "66.7%", "5/5", "100.0%", "7/9", "77.8%"]]
    assert "missing: gepbench-1/location-5" in model_a
    assert "all, audited ok: model_b 100.0% above model_a 80.0%" in out
    assert "all, corrected: model_b 77.8% above model_a 66.7%" in out

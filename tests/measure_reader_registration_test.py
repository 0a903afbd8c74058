#!/usr/bin/env python3
"""scripts/measure_reader.py's Geometry3K letters (letters_on_their_points): the annotation's
positions are moved by the median offset of the letters both name, then a letter counts where it
lies within the tolerance of its point. One letter in common cannot register a picture (its own
error would be the offset): nothing counts. Values worked by hand. And the letters a read scene
counts (labelled_points): labelled points; with_range, also a point the reader named by the
figure's range (its letter clipped at the edge), never a free point or another unlabelled one.

Usage: measure_reader_registration_test.py SOURCE_DIR"""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "measure_reader", os.path.join(sys.argv[1], "scripts", "measure_reader.py"))
measure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(measure)

truth = {"A": (0, 0), "B": (100, 0), "C": (50, 80)}
# Read 30 px right and 10 px down of the annotation; C 7 px further off.
read = {"A": (30, 10), "B": (130, 10), "C": (87, 90)}
assert measure.letters_on_their_points(truth, read, 6) == 2
assert measure.letters_on_their_points(truth, read, 8) == 3
# A speck read as A far from A's point, the only letter in common: not registered, not true.
assert measure.letters_on_their_points(truth, {"A": (134, 58), "Q": (1, 1)}, 6) is None
assert measure.letters_on_their_points(truth, {}, 6) is None
scene = {"points": [
    {"id": "A", "at": [1, 2]},
    {"id": "D", "at": [3, 4], "label": False,
     "extra": {"evidence": {"letter": {"text": "D", "from": "the figure's range: its letter lies past the edge"}}}},
    {"id": "E", "at": [5, 6], "label": False},
    {"id": "_1", "at": [7, 8], "label": False}]}
assert measure.labelled_points(scene) == {"A": (1, 2)}
assert measure.labelled_points(scene, with_range=True) == {"A": (1, 2), "D": (3, 4)}
print("ok")

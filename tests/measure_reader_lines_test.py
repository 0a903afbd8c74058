#!/usr/bin/env python3
"""scripts/measure_reader.py's truth lines made maximal (maximal_lines), on hand-worked figures:
VisOnlyQA lists "AB, BE" where B lies on AE up to its 2-decimal rounding, and the picture draws one
line ABE; a bend the picture can show, and collinear lines that share no point, stay apart; where
only the rounding merges them, the reading the picture read (lines_as_read_where_unsure); a point
the text leaves off a line but that lies on its stroke within the rounding, as read
(points_on_lines_as_read_where_unsure); a line the picture reads on past its end within the rounding,
along strokes the text draws (lines_run_on_where_unsure); the lines read, merged only where a line
read in two pieces is one straight line (read_lines_as_drawn); why a line is on one side only
(line_miss_cause); and lines matched by their points' places (lines_matched_by_place).

Usage: measure_reader_lines_test.py SOURCE_DIR"""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "measure_reader", os.path.join(sys.argv[1], "scripts", "measure_reader.py"))
measure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(measure)
failures = []


def expect(what, got, want):
    ok = got == want
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f": got {sorted(map(sorted, got))}"))
    if not ok:
        failures.append(what)


def lines(*names):
    return {frozenset(name) for name in names}


# B is 0.004 off AE (within the rounding of 0.005 a coordinate): one line through A, B, E.
points = {"A": (0.0, 0.0), "B": (1.0, 0.004), "E": (3.0, 0.0), "C": (1.0, 2.0)}
expect("pieces collinear within the rounding are one line", measure.maximal_lines(lines("AB", "BE", "BC"), points),
       lines("ABE", "BC"))
# H is 0.05 off AF: a bend of about 3 degrees, kept as two lines.
points = {"A": (0.0, 0.0), "H": (1.0, 0.05), "F": (3.0, 0.0)}
expect("a bend beyond the rounding stays two lines", measure.maximal_lines(lines("AH", "HF"), points),
       lines("AH", "HF"))
# AB and CD on one straight line but apart: the picture may draw a gap, so they stay apart.
points = {"A": (0.0, 0.0), "B": (1.0, 0.0), "C": (2.0, 0.0), "D": (3.0, 0.0)}
expect("collinear lines that share no point stay apart", measure.maximal_lines(lines("AB", "CD"), points),
       lines("AB", "CD"))
# A chain merges step by step (AB + BC, then + CD); a point without coordinates blocks a merge.
points = {"A": (0.0, 0.0), "B": (1.0, 1.0), "C": (2.0, 2.003), "D": (3.0, 3.0)}
expect("a chain of collinear pieces is one line", measure.maximal_lines(lines("AB", "BC", "CD"), points),
       lines("ABCD"))
expect("a letter without coordinates is not merged", measure.maximal_lines(lines("AB", "BX"), points),
       lines("AB", "BX"))
# Two listed lines sharing two letters were one line already (merged_lines).
expect("lines sharing two letters are one line", measure.maximal_lines(lines("ABC", "BCD"), points), lines("ABCD"))
# Hand-clicked annotations (Geometry3K, pixels): M 2 px off AB is on it, 5 px off it is not.
points = {"A": (0.0, 0.0), "B": (200.0, 0.0), "M": (90.0, 2.0), "N": (90.0, 5.0)}
expect("a clicked point within 3 px of a line is on it",
       measure.maximal_lines(lines("AB", "AM", "MB"), points, measure.HAND_SLACK_PX), lines("ABM"))
expect("a clicked point 5 px off a line is not",
       measure.maximal_lines(lines("AB", "AN", "NB"), points, measure.HAND_SLACK_PX), lines("AB", "AN", "BN"))
# Where only the rounding merges lines listed apart (K 0.006 off BF, 3 px at 500 px a unit), the
# text cannot say whether the picture draws one line or two: the reading the picture read is taken.
listed = lines("BF", "BK", "BC")
maximal = lines("BFK", "BC")
expect("lines listed apart and read apart are the truth",
       measure.lines_as_read_where_unsure(listed, maximal, lines("BF", "BK", "BC")), lines("BF", "BK", "BC"))
expect("lines listed apart and read as one are the truth",
       measure.lines_as_read_where_unsure(listed, maximal, lines("BFK", "BC")), lines("BFK", "BC"))
expect("the reading matching more lines read is the truth",
       measure.lines_as_read_where_unsure(listed, maximal, lines("BF", "BC")), lines("BF", "BK", "BC"))
expect("with nothing of either read, the maximal line is the truth",
       measure.lines_as_read_where_unsure(listed, maximal, lines("BC")), lines("BFK", "BC"))
# G, the crossing of BD with AE, lies 0.001 off CF between C and F (within the rounding): the text
# does not list it on CF, and cannot say it is off it. Read on CF, CFG is the truth; read apart, CF.
points = {"C": (0.0, 0.0), "F": (4.0, 0.0), "G": (1.5, 0.001), "B": (1.5, 2.0), "D": (1.5, -2.0),
          "X": (5.0, 0.001), "Y": (2.0, 0.05)}
expect("a point on a line's stroke within the rounding, read on it, is on it",
       measure.points_on_lines_as_read_where_unsure(lines("CF", "BDG"), points, lines("CFG", "BDG")),
       lines("CFG", "BDG"))
expect("the same point read off the line is off it",
       measure.points_on_lines_as_read_where_unsure(lines("CF", "BDG"), points, lines("CF", "BDG")),
       lines("CF", "BDG"))
expect("a point past the line's end is not taken onto it",
       measure.points_on_lines_as_read_where_unsure(lines("CF"), points, lines("CFX")), lines("CF"))
expect("a point beyond the rounding is not taken onto it",
       measure.points_on_lines_as_read_where_unsure(lines("CF"), points, lines("CFY")), lines("CF"))
# The lines read: one read in two pieces (ABF and AF, B 1 px off AF) is one line; two that cross at
# E at an angle, both holding E and M (M 8 px past E, read on K–E's line too), are two readings,
# each judged on its own (merged, they would take in every letter of both: ABEKM).
scene = {"extra": {"picture": {"tolerance_px": 2.5}},
         "points": [{"id": k, "at": list(at)} for k, at in
                    {"A": (0, 0), "B": (50, 1), "F": (100, 0), "E": (200, 100), "M": (208, 100),
                     "K": (100, 83.4), "Q": (0, 100)}.items()],
         "lines": [{"through": ["A", "B", "F"]}, {"through": ["A", "F"]},
                   {"through": ["Q", "E", "M"]}, {"through": ["K", "E", "M"]}]}
expect("a line read in two pieces is one line, lines read at an angle stay apart",
       measure.read_lines_as_drawn(scene), lines("ABF", "EMQ", "EKM"))
expect("merged by two letters alone, the lines at an angle fold into one",
       measure.merged_lines(measure.letter_lines(scene)), lines("ABF", "EKMQ"))
# A line run on past its end within the rounding (VisOnlyQA 00617noise_1): F lies 0.002 off line BE
# beyond B, and B-F is drawn as a piece of line BCF (C 0.5 off BE: a bend anyone sees). The picture
# draws E-B-F straight; read as BEF, BEF replaces BE in the truth, and BCF stays.
points = {"E": (-3.0, 0.0), "B": (0.0, 0.0), "F": (0.3, 0.002), "C": (3.0, 0.5), "G": (0.3, 0.05),
          "H": (-6.0, 0.0)}
expect("a line read on past its end within the rounding runs on",
       measure.lines_run_on_where_unsure(lines("BE", "BCF"), points, lines("BEF", "BCF")), lines("BEF", "BCF"))
expect("read as listed, the lines stay as listed",
       measure.lines_run_on_where_unsure(lines("BE", "BCF"), points, lines("BE", "BCF")), lines("BE", "BCF"))
expect("a point beyond the rounding is not run on to",
       measure.lines_run_on_where_unsure(lines("BE", "BCG"), points, lines("BEG", "BCG")), lines("BE", "BCG"))
expect("a step no line of the text draws is not run on along (H-E undrawn)",
       measure.lines_run_on_where_unsure(lines("BE", "BCF"), points, lines("BEH", "BCF")), lines("BE", "BCF"))
expect("a read line within a line of the text is judged as it is (a point missed)",
       measure.lines_run_on_where_unsure(lines("BEH"), points, lines("BE")), lines("BEH"))
# Why a line is on one side only (line_miss_cause), in pixels: K 1 px off the line through J and L
# (strokes 2 px wide) read on it; M 6 px off; a line with a letter the reading missed.
pixels = {"J": (0.0, 0.0), "K": (50.0, 1.0), "L": (100.0, 0.0), "M": (50.0, 6.0), "N": (0.0, 80.0)}
expect_cause = lambda what, got, want: expect(what, {frozenset([got])}, {frozenset([want])})
expect_cause("a letter missed is the cause first",
             measure.line_miss_cause(frozenset("JL"), lines("JKL"), {"L"}, pixels, 2.0), "a_letter_missed")
expect_cause("a point within a stroke's width of the line is the picture's",
             measure.line_miss_cause(frozenset("JL"), lines("JKL"), set(), pixels, 2.0), "within_a_stroke")
expect_cause("a point 6 px off is not, but beside it (within 4 strokes' widths)",
             measure.line_miss_cause(frozenset("JL"), lines("JLM"), set(), pixels, 2.0), "a_point_beside_it")
expect_cause("a point 6 px off a line of strokes 1 px wide is other",
             measure.line_miss_cause(frozenset("JL"), lines("JLM"), set(), pixels, 1.0), "other")
expect_cause("a line no line of the other side shares two letters with is other",
             measure.line_miss_cause(frozenset("JN"), lines("JKL"), set(), pixels, 2.0), "other")
# Lines matched by place (lines_matched_by_place): true ABC and DE; read ABX with X read at C's
# place (C's letter misread) matches ABC; read DY with Y 10 px from E's place does not (tolerance 8).
true_px = {"A": (0.0, 0.0), "B": (50.0, 0.0), "C": (100.0, 0.0), "D": (0.0, 60.0), "E": (100.0, 60.0)}
read_px = {"A": (1.0, 0.0), "B": (50.0, 2.0), "X": (99.0, 1.0), "D": (0.0, 61.0), "Y": (110.0, 60.0)}
expect_count = lambda what, got, want: expect(what, {frozenset([got])}, {frozenset([want])})
expect_count("a line read with a misread letter matches by place, one read off by 10 px does not",
             measure.lines_matched_by_place(lines("ABC", "DE"), lines("ABX", "DY"), true_px, read_px, 8.0), 1)
expect_count("a line read short (B missing) does not match",
             measure.lines_matched_by_place(lines("ABC"), lines("AX"), true_px, read_px, 8.0), 0)
sys.exit(1 if failures else 0)

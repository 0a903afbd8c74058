#!/usr/bin/env bash
# The per-dataset error report of `audit` on hand-made Geometry3K fixtures: conflicts ranked by
# slack, one SVG per diagram marking the offending point, line and circle in red, and with --image
# the dataset's own picture (<id>/img_diagram.png) embedded under the marks.
set -u
geotruth=$(realpath "$1")
fixtures=$(realpath "$2")
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$geotruth" audit --from geometry3k "$fixtures/geometry3k/bent_lines.json" "$fixtures/geometry3k/wrong_centre.json" \
  -o out >/dev/null 2>&1
check "audit exits 0" 0 $?
check "conflicts.html written" 1 "$(ls out/conflicts.html 2>/dev/null | wc -l)"
# Ranked: every slack is at most the one before it (conflicts without a slack come last).
ranked=$(python3 -c '
import json, sys
s = [json.loads(l).get("slack_px", -1) for l in open("out/conflicts.jsonl")]
print(int(len(s) > 0 and all(a >= b for a, b in zip(s, s[1:]))))')
check "conflicts ranked by slack" 1 "$ranked"
# W is declared on D-T 11 px off: its ring (r 7 at W = (100, 171)) and the line D-T in red.
svg=out/diagrams/fact_bends_a_drawn_line.svg
check "an SVG for the diagram" 1 "$(ls "$svg" 2>/dev/null | wc -l)"
check "W ringed" 1 "$(grep -c '<circle cx="100" cy="171" r="7"/>' "$svg")"
check "line D-T marked" 2 "$(grep -c '<line x1="0" y1="182" x2="291" y2="182"/>' "$svg")"  # annotation + mark
check "the finding as a tooltip" 1 "$(grep -c '<title>declared_off_line 11 px' "$svg")"
check "the SVG links from the page" 1 "$(grep -c 'href="diagrams/fact_bends_a_drawn_line.svg"' out/conflicts.html)"
# The wrong centre B of circle O: B ringed, circle O (centre (200, 200), radius 100) in red.
svg=out/diagrams/facts_name_a_wrong_centre.svg
check "wrong centre ringed" 1 "$(grep -c '<circle cx="170" cy="160" r="7"/>' "$svg")"
check "its circle marked" 2 "$(grep -c '<circle cx="200" cy="200" r="100"/>' "$svg")"  # annotation + mark
check "a clean diagram has no SVG" 0 "$(ls out/diagrams | grep -c second_circle_of_its_own)"

# --image: the dataset's picture of the diagram, embedded (the SVG stands alone, offline).
"$geotruth" render --from geometry3k "$fixtures/geometry3k/bent_lines.json" -o pictures >/dev/null 2>&1
mkdir -p images/fact_bends_a_drawn_line
mv pictures/fact_bends_a_drawn_line.png images/fact_bends_a_drawn_line/img_diagram.png
"$geotruth" audit --from geometry3k "$fixtures/geometry3k/bent_lines.json" -o over --image images >/dev/null 2>&1
check "audit --image exits 0" 0 $?
check "the picture is embedded" 1 "$(grep -c 'href="data:image/png;base64,' over/diagrams/fact_bends_a_drawn_line.svg)"
check "without --image, drawn on white" 0 "$(grep -c 'data:image' out/diagrams/fact_bends_a_drawn_line.svg)"
"$geotruth" audit --from geometry3k "$fixtures/geometry3k/bent_lines.json" -o bad --image missing-dir >/dev/null 2>&1
check "--image must be a directory" 2 $?
finish "error report"

#!/usr/bin/env python3
"""The layers run one way (layers.txt, scripts/check_layers.py): the check passes on the tree and
its targets, and fails, naming the culprit, on copies of the tree with an upward include, an
include between layers of one rank, a file in no layer, and an upward link planted.

Usage: layers_test.py SOURCE_DIR TARGETS_FILE   (TARGETS_FILE: build/layers/targets.txt)"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE, TARGETS = sys.argv[1], sys.argv[2]
CHECK = os.path.join(SOURCE, "scripts", "check_layers.py")
failures = []


def check(root, targets=None, *extra):
    cmd = [sys.executable, CHECK, "--root", root] + (["--targets", targets] if targets else []) + list(extra)
    run = subprocess.run(cmd, capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr


def expect(what, ok):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


# The tree as it is, with its targets: one way, and the listing places every target.
code, listing, errors = check(SOURCE, TARGETS, "--list")
expect("the tree and its targets pass (exit %d: %s)" % (code, errors.strip()), code == 0)
expect("every target placed in a layer", "(?)" not in listing and " -> " in listing)
for low, high in (("geotruth_core", "geotruth_geometry"), ("geotruth_geometry", "geotruth_graph")):
    line = next((l for l in listing.splitlines() if re.search(r"\s%s\s+->" % low, l)), "")
    expect("%s listed, linking no %s" % (low, high), line != "" and high not in line)


def source_copy():
    """The tree's sources and layers.txt in a temporary folder (build folders and data left out)."""
    copy = tempfile.mkdtemp(prefix="geotruth-layers-")
    keep = (".cpp", ".hpp", ".h", ".cc", ".cpp.in")

    def ignore(folder, names):
        return [n for n in names
                if (os.path.isdir(os.path.join(folder, n)) and (n.startswith(("build", ".")) or n == "data"))
                or (os.path.isfile(os.path.join(folder, n)) and not n.endswith(keep) and n != "layers.txt")]

    shutil.copytree(SOURCE, os.path.join(copy, "tree"), ignore=ignore)
    return os.path.join(copy, "tree")


def plant(relative, text):
    root = source_copy()
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)
    code, _, errors = check(root)
    shutil.rmtree(os.path.dirname(root))
    return code, errors


code, errors = plant("core/bands.cpp", '\n#include <geotruth/audit.hpp>\n')
expect("core including the audit's public header fails, naming the line",
       code == 1 and re.search(r"core/bands\.cpp:\d+: layer core \(rank 0\) includes <geotruth/audit\.hpp> of layer audit",
                               errors) is not None)
code, errors = plant("geometry/segments.cpp", '\n#include "batch/batch.hpp"\n')
expect("geometry including a batch header fails", code == 1 and "geometry/segments.cpp" in errors
       and "of layer batch" in errors)
code, errors = plant("graph/counts.cpp", '\n#include "vision/figure.hpp"\n')
expect("graph including vision (the same rank) fails", code == 1 and "graph/counts.cpp" in errors
       and "of layer vision" in errors)
code, errors = plant("vision/crosscheck/gaps.cpp", '\n#include "questions/shapes.hpp"\n')
expect("a crosscheck step including a question header fails", code == 1 and "vision/crosscheck/gaps.cpp" in errors)
code, errors = plant("src/newthing/thing.cpp", "int thing() { return 1; }\n")
expect("a source in no layer fails", code == 1 and "src/newthing/thing.cpp: in no layer" in errors)
code, errors = plant("src/audit/planted.cpp", '#include "core/json_reader.hpp"\n#include <geotruth/counts.hpp>\n')
expect("downward includes pass", code == 0)

# An upward link: the core taking the audit library.
with tempfile.TemporaryDirectory() as scratch:
    planted = os.path.join(scratch, "targets.txt")
    with open(TARGETS, encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines = [l + " geotruth_audit" if l.startswith("geotruth_core |") else l for l in lines]
    with open(planted, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    code, _, errors = check(SOURCE, planted)
    expect("geotruth_core linking geotruth_audit fails",
           code == 1 and "target geotruth_core of layer core (rank 0) links geotruth_audit" in errors)

if failures:
    print("%d of the layer checks failed" % len(failures))
    sys.exit(1)

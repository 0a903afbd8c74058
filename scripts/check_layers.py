#!/usr/bin/env python3
"""Checks that geotruth's layers run one way (layers.txt; docs/design.md, "Layers").

Usage: scripts/check_layers.py [--root DIR] [--targets FILE] [--list]

  --root DIR      the source tree to check (default: the one this script is in)
  --targets FILE  the CMake targets' sources and links, as CMakeLists.txt writes them
                  (build/layers/targets.txt): every target's links are checked too
  --list          print the layers, which layers each one includes, and every target with its
                  layer and the targets it links with theirs

Every C++ source and header under the tree (build directories and hidden folders aside) must be
in one layer; every #include that names a file of the tree must name one of its own layer or of
a layer of lower rank. A target's layer is the highest of its sources'; it may link (or take the
objects of) targets of its own layer or of lower rank only. Exit 0 when all is one way, 1 with a
line per violation on stderr, 2 when layers.txt or the targets file cannot be read.
"""
import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".cpp.in")
# Where `#include "a/b.hpp"` and `#include <a/b.hpp>` are looked for, after (for quoted ones) the
# including file's own folder: the include directories CMakeLists.txt gives the targets.
INCLUDE_ROOTS = ("", "src", "include")
SKIPPED_FOLDERS = re.compile(r"^(build.*|out|\..*|__pycache__|node_modules)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


class Layers:
    """layers.txt: layers by name, with their rank and paths (folders end in '/')."""

    def __init__(self, path):
        self.rank, self.paths, self.order = {}, [], []
        current = None
        with open(path, encoding="utf-8") as f:
            for number, raw in enumerate(f, 1):
                line = raw.split("#", 1)[0].strip()
                if not line:
                    continue
                head = re.match(r"^(\d+)\s+([A-Za-z_][\w-]*):(.*)$", line)
                if head:
                    current = head.group(2)
                    if current in self.rank:
                        raise ValueError(f"{path}:{number}: layer {current} named twice")
                    self.rank[current] = int(head.group(1))
                    self.order.append(current)
                    line = head.group(3)
                elif current is None:
                    raise ValueError(f"{path}:{number}: expected 'RANK NAME: PATH...', got {raw.strip()!r}")
                for item in line.split():
                    if any(item == p for p, _ in self.paths):
                        raise ValueError(f"{path}:{number}: {item} is in two layers")
                    self.paths.append((item, current))
        # The longest path that holds a file names its layer.
        self.paths.sort(key=lambda entry: -len(entry[0]))

    def of(self, relative):
        for path, layer in self.paths:
            if relative == path or (path.endswith("/") and relative.startswith(path)):
                return layer
        return None

    def allowed(self, user, used):
        return user == used or self.rank[used] < self.rank[user]

    def describe(self, layer):
        return f"{layer} (rank {self.rank[layer]})"


def sources(root):
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not SKIPPED_FOLDERS.match(d))
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def includes(root, relative):
    """(line number, as written, the tree's file it names or None) for each #include."""
    with open(os.path.join(root, relative), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            bracket, name = m.groups()
            candidates = [os.path.dirname(relative)] if bracket == '"' else []
            candidates += INCLUDE_ROOTS
            found = [os.path.normpath(os.path.join(c, name)).replace(os.sep, "/") for c in candidates]
            found = [p for p in found if not p.startswith("..") and os.path.isfile(os.path.join(root, p))]
            shown = f"{bracket}{name}{'>' if bracket == '<' else chr(34)}"
            yield number, shown, found[0] if found else None


def read_targets(path):
    """{target: (sources, object libraries, linked targets)} from the file CMakeLists.txt writes."""
    targets = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("|")
            if len(parts) != 4:
                raise ValueError(f"{path}:{number}: expected 'TARGET | SOURCES | OBJECTS | LINKS', got {line!r}")
            targets[parts[0].strip()] = tuple(part.split() for part in parts[1:])
    return targets


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=here)
    parser.add_argument("--targets")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    try:
        layers = Layers(os.path.join(root, "layers.txt"))
        targets = read_targets(args.targets) if args.targets else {}
    except (OSError, ValueError) as error:
        print(f"check_layers: {error}", file=sys.stderr)
        return 2

    problems = []
    uses = {layer: set() for layer in layers.order}  # layer -> the other layers it includes
    files = 0
    for relative in sources(root):
        files += 1
        layer = layers.of(relative)
        if layer is None:
            problems.append(f"{relative}: in no layer (add its folder to layers.txt)")
            continue
        for number, shown, target in includes(root, relative):
            used = layers.of(target) if target else None
            if used is None:
                continue  # a system or library header, or a generated one
            if used != layer:
                uses[layer].add(used)
            if not layers.allowed(layer, used):
                problems.append(f"{relative}:{number}: layer {layers.describe(layer)} includes {shown} "
                                f"of layer {layers.describe(used)}")

    # A target's layer: the highest of its sources' and of the object libraries' it takes (their
    # code is its own), object libraries first.
    target_layer = {}
    pending = sorted(targets, key=lambda t: len(targets[t][1]))
    for name in pending:
        target_sources, objects, _ = targets[name]
        placed = {layers.of(s) for s in target_sources} | {target_layer.get(o) for o in objects}
        if None in placed or not placed:
            unplaced = [s for s in target_sources if layers.of(s) is None] + [o for o in objects if o not in target_layer]
            problems.append(f"target {name}: in no layer: {' '.join(unplaced) or '(no sources)'}")
            continue
        top = max(layers.rank[p] for p in placed)
        highest = sorted(p for p in placed if layers.rank[p] == top)
        if len(highest) > 1:
            problems.append(f"target {name}: sources of layers {' and '.join(highest)} (rank {top}), "
                            "which know nothing of each other")
        target_layer[name] = highest[0]
    for name, (_, _, linked) in targets.items():
        if name not in target_layer:
            continue
        for other in linked:
            if other not in target_layer:
                if other not in targets:
                    problems.append(f"target {name} links {other}, which the targets file does not list")
                continue
            if not layers.allowed(target_layer[name], target_layer[other]):
                problems.append(f"target {name} of layer {layers.describe(target_layer[name])} links {other} "
                                f"of layer {layers.describe(target_layer[other])}")

    if args.list:
        print("layers, lowest first, with the layers each one includes:")
        for layer in sorted(layers.order, key=lambda l: (layers.rank[l], layers.order.index(l))):
            used = sorted(uses[layer], key=lambda l: (layers.rank[l], l))
            print(f"  {layers.rank[layer]} {layer:10} includes {', '.join(used) if used else '-'}")
        if targets:
            print("targets, lowest first: layer, and the object libraries it takes and targets it links (with "
                  "their layers):")
            for name in sorted(target_layer, key=lambda t: (layers.rank[target_layer[t]], t)):
                used = targets[name][1] + targets[name][2]
                linked = [f"{o} ({target_layer.get(o, '?')})" for o in used]
                print(f"  {layers.rank[target_layer[name]]} {target_layer[name]:10} {name:24} "
                      f"-> {', '.join(linked) if linked else '-'}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check_layers: {files} files, {len(targets)} targets, {len(problems)} upward or unplaced",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

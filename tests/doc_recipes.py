#!/usr/bin/env python3
"""The command blocks of the docs, for the tests that run them as written.

Every ```sh or ```bash block of a checked doc carries a marker on the line before it,
<!-- recipe: NAME -->, invisible when the page is rendered. A test prints a block by its name and
runs it (or writes it to the file NAME when it is a job script); `check` then fails when a block
of the doc was not run, or has no marker: a command line in the docs is one a test runs.

Usage: doc_recipes.py show DOC NAME
       doc_recipes.py check DOC RAN_FILE   (RAN_FILE: the names run, one a line)"""
import re
import sys

MARKER = re.compile(r"^<!-- recipe: (\S+) -->\s*$")


def blocks(doc):
    """[(name or None, line number, text)] of the doc's sh and bash blocks."""
    lines = open(doc, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if fence.group(1) in ("sh", "bash"):
            marker = MARKER.match(lines[start - 1]) if start > 0 else None
            out.append((marker.group(1) if marker else None, start + 1, "\n".join(body) + "\n"))
    return out


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "show":
        for name, _, text in blocks(sys.argv[2]):
            if name == sys.argv[3]:
                sys.stdout.write(text)
                return 0
        sys.exit("%s: no block marked <!-- recipe: %s -->" % (sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        ran = set(open(sys.argv[3]).read().split())
        failed = 0
        for name, line, _ in blocks(sys.argv[2]):
            if name is None:
                print("%s:%d: a command block without its <!-- recipe: NAME --> marker" % (sys.argv[2], line))
                failed += 1
            elif name not in ran:
                print("%s:%d: the block %s is not run by the test" % (sys.argv[2], line, name))
                failed += 1
        return 1 if failed else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())

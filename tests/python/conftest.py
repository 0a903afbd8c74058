"""Shared fixtures: the geotruth command (GEOTRUTH_CLI, set by ctest) and the repository's data."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "scenes.jsonl"
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="session")
def cli():
    """Runs the geotruth command; returns its stdout (the exit code must be 0 unless allowed)."""
    path = os.environ.get("GEOTRUTH_CLI", str(ROOT / "build" / "geotruth"))

    def run(*args, codes=(0,)):
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        assert done.returncode in codes, done.stderr
        return done.stdout

    return run


def jsonl(text_or_path):
    text = Path(text_or_path).read_text() if isinstance(text_or_path, Path) else text_or_path
    return [json.loads(line) for line in text.splitlines() if line.strip()]

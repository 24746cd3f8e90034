"""Shared data of the tests: the rules crate's reference files."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "xiangqi" / "tests" / "data"


def reference_lines(name, count):
    """The first `count` data lines of a reference file (comments skipped)."""
    lines = [line for line in (DATA / name).read_text().splitlines() if line and not line.startswith("#")]
    return lines[:count]


@pytest.fixture
def perft_cases():
    return [line.split(";") for line in reference_lines("perft.epd", 40)]


@pytest.fixture
def legal_cases():
    return [line.split(";") for line in reference_lines("legal_moves.txt", 60)]

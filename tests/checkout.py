"""The checkout the tests run in: some tests read its own files (the README, pyproject.toml,
setup.py, the lessons' sources) to check that they say what the code does."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The repository's top folder."""

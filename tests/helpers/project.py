"""The checkout's two environment files, read: pyproject.toml (pip) and environment.yml (conda)."""

from __future__ import annotations

import sys
from typing import Any

import yaml

from tests.checkout import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


def pyproject() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as file:
        data: dict[str, Any] = tomllib.load(file)
    return data


def environment() -> dict[str, Any]:
    with (REPO / "environment.yml").open(encoding="utf-8") as file:
        data: dict[str, Any] = yaml.safe_load(file)
    return data

"""The site's Voila settings (`voila.py`) and its changes to Voila, loaded as Voila loads them."""

from __future__ import annotations

import importlib
from types import ModuleType

from traitlets.config.loader import PyFileConfigLoader

from penang_lib.site.serve import SITE


def site_config() -> object:
    loader = PyFileConfigLoader("voila.py", path=str(SITE))
    return loader.load_config()


def site_changes() -> ModuleType:
    """The site's changes to Voila, `penang_lib.site.patches`, as the settings import it."""
    return importlib.import_module("penang_lib.site.patches")

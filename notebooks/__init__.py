"""The lessons as package data: installed, this folder is `penang_lib.notebooks` (see
pyproject.toml), so `importlib.resources.files("penang_lib.notebooks")` finds the published
lessons (`lessons/`) and their data (`lessons/data/`) in a wheel and in a checkout alike."""

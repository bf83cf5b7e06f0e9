# penang-rummy: every command a developer or CI needs. Everything runs from .venv,
# which the targets below create (and refresh when pyproject.toml changes).

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: .venv test lint format typecheck serve bench clean distclean

# `make .venv`: create the virtual environment and install the kit with its test tools.
.venv: $(STAMP)

$(BIN)/python:
	$(PY) -m venv $(VENV)

# Re-install whenever pyproject.toml changes (new dependency, new extra, ...).
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install -U pip
	$(BIN)/pip install -e '.[test]'
	touch $@

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy penang_lib widgets tests benchmarks
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Rewrites files: sorts imports, then formats.
format: $(STAMP)
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy penang_lib widgets tests benchmarks

# JupyterLab on the lessons, until the Voila tutorial site exists.
# Extra options go in SERVE_ARGS, e.g. `make serve SERVE_ARGS=--allow-root` when running as root.
# As root (CI machines, containers) JupyterLab needs --allow-root, so it is added there.
SERVE_ARGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)
serve: $(STAMP)
	$(BIN)/jupyter lab notebooks --ServerApp.ip=127.0.0.1 $(SERVE_ARGS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Build output and tool caches; keeps .venv (see distclean).
clean:
	rm -rf build dist *.egg-info
	find . -path ./$(VENV) -prune -o \
		\( -name __pycache__ -o -name .mypy_cache -o -name .ruff_cache \
		   -o -name .pytest_cache -o -name .hypothesis -o -name .ipynb_checkpoints \) \
		-type d -print0 | xargs -0 rm -rf

# clean, and remove the virtual environment too.
distclean: clean
	rm -rf $(VENV)

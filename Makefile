# penang-rummy: every command a developer or CI needs. Everything runs from .venv,
# which the targets below create (and refresh when pyproject.toml changes).

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# axe-core (accessibility audits in the browser tests), from the npm registry.
AXE_VERSION := 4.14.1
AXE := .cache/npm/node_modules/axe-core/axe.min.js

.PHONY: .venv test lint format typecheck serve lab bench clean distclean chromium

# `make .venv`: create the virtual environment and install the kit with its test tools.
.venv: $(STAMP)

$(BIN)/python:
	$(PY) -m venv $(VENV)

# Re-install whenever pyproject.toml or setup.py changes (new dependency, new extra, ...).
# The install compiles the engine's hottest modules with mypyc where a C compiler is found
# (setup.py; pure Python otherwise).
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/pip install -U pip
	$(BIN)/pip install -e '.[test]'
	touch $@ $(COMPILED)

# The compiled modules are only used while penang_lib's sources are the ones they were built
# from (penang_lib/compiled.py): after an edit, build them again before the tests.
COMPILED := $(VENV)/.compiled
$(COMPILED): $(STAMP) $(wildcard penang_lib/*.py)
	$(BIN)/python setup.py --quiet build_ext --inplace
	touch $@

# The suite runs on the compiled engine (where the install could compile it), then everything
# but the browser tests once more on pure Python (PENANG_PURE=1): both ways must pass.
test: $(STAMP) $(COMPILED) $(AXE) chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy penang_lib widgets tests benchmarks setup.py
	$(BIN)/pytest
	PENANG_PURE=1 $(BIN)/pytest -q tests --ignore=tests/site

$(AXE):
	npm install --prefix .cache/npm --no-save --no-audit --no-fund axe-core@$(AXE_VERSION)

# The browser tests drive the system's Chromium (Playwright cannot download one here).
chromium:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  [ -n "$$PENANG_CHROMIUM" ] || { \
	  echo "No Chromium for the browser tests: on Debian 'apt-get install chromium' (.ci/run does)," >&2; \
	  echo "elsewhere '$(BIN)/python -m playwright install chromium' and set PENANG_CHROMIUM." >&2; \
	  exit 1; }

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Rewrites files: sorts imports, then formats.
format: $(STAMP)
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy penang_lib widgets tests benchmarks setup.py

# The tutorial site (Voila) on http://127.0.0.1:8866; options of `penang-rummy serve` go in
# SERVE_ARGS, e.g. `make serve SERVE_ARGS="--port 9000 --open"`.
SERVE_ARGS ?=
serve: $(STAMP)
	$(BIN)/penang-rummy serve $(SERVE_ARGS)

# JupyterLab on every notebook (for writing lessons, not for learners).
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks --ServerApp.ip=127.0.0.1 $(if $(filter 0,$(shell id -u)),--allow-root,)

# The benchmarks also need the bench extra (OpenSpiel, which bench_openspiel times ours against).
BENCH_STAMP := $(VENV)/.installed-bench
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install -e '.[test,bench]'
	touch $@

bench: $(BENCH_STAMP) $(COMPILED)
	$(BIN)/python -m benchmarks

# Build output and tool caches; keeps .venv (see distclean).
clean:
	rm -rf build dist *.egg-info $(COMPILED) penang_lib/_compiled.json penang_lib/*.so *__mypyc.*.so
	find . -path ./$(VENV) -prune -o \
		\( -name __pycache__ -o -name .mypy_cache -o -name .ruff_cache \
		   -o -name .pytest_cache -o -name .hypothesis -o -name .ipynb_checkpoints \) \
		-type d -print0 | xargs -0 rm -rf

# clean, and remove the virtual environment too.
distclean: clean
	rm -rf $(VENV) .cache

# penang-rummy: every command a developer or CI needs. Everything runs from .venv,
# which the targets below create (and refresh when pyproject.toml changes).

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# From the npm registry, into .cache/npm: axe-core (accessibility audits in the browser tests)
# and configurable-http-proxy (the proxy of the real JupyterHub in tests/site/test_hub.py).
AXE_VERSION := 4.14.1
AXE := .cache/npm/node_modules/axe-core/axe.min.js
CHP_VERSION := 5.3.0
CHP := .cache/npm/node_modules/.bin/configurable-http-proxy
NPM_PACKAGES := axe-core@$(AXE_VERSION) configurable-http-proxy@$(CHP_VERSION)

.PHONY: .venv test test-compiled lint format typecheck serve lab bench clean distclean chromium

# `make .venv`: create the virtual environment and install the kit with its test tools.
.venv: $(STAMP)

$(BIN)/python:
	$(PY) -m venv $(VENV)

# Files of in-place mypyc builds (which the kit no longer makes): an extension module left in
# penang_lib/ would be imported before its .py file.
INPLACE_BUILD := penang_lib/*.so penang_lib/*.pyd penang_lib/_compiled.json *__mypyc*.so

# Re-install whenever pyproject.toml or setup.py changes (new dependency, new extra, ...).
# The editable install is pure Python (setup.py compiles only when PENANG_COMPILE=1).
$(STAMP): $(BIN)/python pyproject.toml setup.py
	rm -f $(INPLACE_BUILD)
	$(BIN)/pip install -U pip
	$(BIN)/pip install -e '.[test]'
	touch $@

# The suite runs once, on the pure Python engine of the editable install; then test-compiled.
test: $(STAMP) $(AXE) $(CHP) chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy penang_lib tests benchmarks tools setup.py
	$(BIN)/pytest
	$(MAKE) --no-print-directory test-compiled

# The compiled engine, as a user gets it: `PENANG_COMPILE=1 pip wheel .` (setup.py), cached in
# .cache/compiled/wheels/<key>, the key a digest of penang_lib's sources, setup.py and
# pyproject.toml, so that an unchanged source is not compiled again. The wheel is installed with
# no dependencies into its own venv, .cache/compiled/venv, made anew for each new wheel; a .pth
# file there adds .venv's site-packages behind its own, for pytest, hypothesis and the kit's
# dependencies (the .pth files in .venv, the editable install's among them, are not read that
# way). The engine's tests (tests/engine/) run from a copy of tests/ and the README they read in
# .cache/compiled/run, where no penang_lib
# of the checkout is on sys.path (but for the one test that reads the checkout's setup.py), and
# PENANG_TEST_COMPILED=1 makes tests/engine/test_compiled.py check that they ran compiled.
# Where no C compiler ($CC, or Python's own) or no Python.h is found, it says so and passes.
COMPILED_DIR := .cache/compiled
COMPILED_VENV := $(COMPILED_DIR)/venv
WHEELS := $(COMPILED_DIR)/wheels
# The engine's tests are the folder that mirrors penang_lib/engine/.
ENGINE_TESTS := tests/engine
test-compiled: $(STAMP)
	@cc=$${CC:-$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("CC") or "cc")')}; \
	cc=$${cc%% *}; \
	include=$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
	if ! command -v "$$cc" >/dev/null || [ ! -f "$$include/Python.h" ]; then \
	  echo "test-compiled: no C compiler ($$cc) or no Python.h here: the compiled engine is not built or tested (the suite ran on pure Python)."; \
	  exit 0; \
	fi; \
	set -e; \
	key=$$({ find penang_lib -name '*.py' | LC_ALL=C sort; \
	  find penang_lib -name '*.py' | LC_ALL=C sort | xargs cat setup.py pyproject.toml; } | \
	  $(BIN)/python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:16])'); \
	wheels=$(WHEELS)/$$key; \
	if ! ls $$wheels/*.whl >/dev/null 2>&1; then \
	  echo "test-compiled: compiling the engine with mypyc (PENANG_COMPILE=1 pip wheel .), about 90 s"; \
	  rm -rf $(WHEELS) build; \
	  PENANG_COMPILE=1 $(BIN)/pip wheel . --no-deps -q -w $$wheels.part; \
	  mv $$wheels.part $$wheels; \
	fi; \
	if [ "$$(cat $(COMPILED_VENV)/.wheel 2>/dev/null)" != "$$key" ]; then \
	  rm -rf $(COMPILED_VENV); \
	  $(BIN)/python -m venv $(COMPILED_VENV); \
	  $(COMPILED_VENV)/bin/python -m pip install -q --no-deps $$wheels/*.whl; \
	  $(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > \
	    "$$($(COMPILED_VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/penang_dev_venv.pth"; \
	  echo "$$key" > $(COMPILED_VENV)/.wheel; \
	fi; \
	rm -rf $(COMPILED_DIR)/run; mkdir -p $(COMPILED_DIR)/run; \
	cp -R tests pyproject.toml README.md $(COMPILED_DIR)/run/; \
	cd $(COMPILED_DIR)/run && PENANG_TEST_COMPILED=1 $(CURDIR)/$(COMPILED_VENV)/bin/python -m pytest \
	  -q -p no:cacheprovider $(ENGINE_TESTS) \
	  --deselect tests/engine/test_compiled.py::test_a_build_compiles_only_when_asked

# Each installs both: npm removes from .cache/npm what the command does not name.
$(AXE) $(CHP):
	npm install --prefix .cache/npm --no-save --no-audit --no-fund $(NPM_PACKAGES)

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
	$(BIN)/mypy penang_lib tests benchmarks tools setup.py

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

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

# Build output and tool caches; keeps .venv (see distclean).
clean:
	rm -rf build dist *.egg-info $(INPLACE_BUILD)
	find . -path ./$(VENV) -prune -o \
		\( -name __pycache__ -o -name .mypy_cache -o -name .ruff_cache \
		   -o -name .pytest_cache -o -name .hypothesis -o -name .ipynb_checkpoints \) \
		-type d -print0 | xargs -0 rm -rf

# clean, and remove the virtual environment too.
distclean: clean
	rm -rf $(VENV) .cache

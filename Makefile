# Boneyard: the two commands.
#   make serve   build the site (installing the pinned runtime packages) and serve it on 127.0.0.1:$(PORT)
#   make test    install what the tests need, build the site, run every test (on JOBS=2 workers)
#                (PYTEST_ARGS='-m "not browser"': the engine and UI tests only, no browser packages)
#   make lint    ruff's rules and mypy;  make fmt  formats the code with ruff format (and fixes what ruff can)
SHELL := /bin/bash
PORT ?= 8000
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PYTEST_ARGS ?=
# pytest-xdist's workers for `make test` (JOBS=1: one process). Each test module runs whole on one worker
# (its shared pages stay shared), in the order pytest collects them, which puts the long browser modules
# before the short engine modules that fill the end.
JOBS ?= 2
XDIST := $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS) --dist loadfile --no-loadscope-reorder)
# The browser packages and Chromium are installed unless the tests asked for exclude the browser tests.
BROWSER := $(if $(findstring not browser,$(PYTEST_ARGS)),,yes)

.PHONY: serve test site bench lint fmt clean

serve: site
	@$(PYTHON) tools/serve.py --dir site --port $(PORT)

site: node_modules/.package-lock.json build/wheels/.fetched
	@$(PYTHON) tools/build_site.py

# The page's pure-Python wheels (requirements-page.txt, pinned by hash), unpacked into the site by the build.
build/wheels/.fetched: requirements-page.txt | $(VPY)
	$(VPY) -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
		--platform any --implementation py --python-version 3.14 --require-hashes \
		-r requirements-page.txt -d build/wheels
	@touch $@

# npm ci installs exactly what package-lock.json pins (and writes node_modules/.package-lock.json).
node_modules/.package-lock.json: package.json package-lock.json
	@tools/ensure-tools.sh node
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(VPY):
	@tools/ensure-tools.sh python
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements-test.txt | $(VPY)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	@touch $@

$(VENV)/.browser: requirements-browser.txt $(VENV)/.installed
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-browser.txt
	@touch $@

test: site $(VENV)/.installed $(if $(BROWSER),$(VENV)/.browser)
	@$(if $(BROWSER),tools/ensure-tools.sh chromium $(VPY))
	$(VPY) -m pytest $(XDIST) $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check py tools tests
	$(VENV)/bin/ruff format --check py tools tests
	$(VENV)/bin/mypy

fmt: $(VENV)/.installed
	$(VENV)/bin/ruff check --fix py tools tests
	$(VENV)/bin/ruff format py tools tests

# Benchmarks (not part of `make test`): engine speed, the public API against a peer, page load;
# see docs/performance.md.
bench: site $(VENV)/.installed $(VENV)/.browser
	@tools/ensure-tools.sh chromium $(VPY)
	PYTHONPATH=py $(VPY) tests/bench/run_all.py

clean:
	rm -rf site node_modules $(VENV) .pytest_cache

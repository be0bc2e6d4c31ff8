# Boneyard: the two commands.
#   make serve   build the site (installing the pinned runtime packages) and serve it on 127.0.0.1:$(PORT)
#   make test    install what the tests need, build the site, run every test
SHELL := /bin/bash
PORT ?= 8000
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: serve test site bench clean

serve: site
	@$(PYTHON) tools/serve.py --dir site --port $(PORT)

site: node_modules/.package-lock.json
	@$(PYTHON) tools/build_site.py

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

test: site $(VENV)/.installed
	@tools/ensure-tools.sh chromium $(VPY)
	$(VPY) -m pytest $(PYTEST_ARGS)

# Benchmarks (not part of `make test`): engine speed and page load; see README.
bench: site $(VENV)/.installed
	@tools/ensure-tools.sh chromium $(VPY)
	PYTHONPATH=py $(VPY) tests/bench/run_all.py

clean:
	rm -rf site node_modules $(VENV) .pytest_cache

# PyPTO Lens: `make demo` and `make test` set everything up on a fresh machine (Python 3.10+).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SOAK_MAX_GROWTH ?= 1.1
SOAK_SECONDS ?= 120
SOAK_BIG_SECONDS ?= 600
SOAK_BIG_MAX_GROWTH ?= 1.15

.PHONY: demo test test-python test-extension bench soak soak-big vsix e2e e2e-nvim clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/pypto-lens check examples --fail-on never

test: test-python test-extension

test-python: $(STAMP)
	$(PY) -m pytest -q

test-extension:
	$(MAKE) -C vscode-extension check

bench: $(STAMP)
	$(PY) tools/bench_analysis.py
	$(PY) tools/bench_server.py
	$(PY) tools/bench_registry.py
	$(PY) tools/bench_models.py
	$(PY) tools/bench_fresh.py
	$(PY) tools/bench_cold.py
	$(PY) tools/bench_workspace.py

# a long editing session against the real server: answers equal a fresh server's, memory within 1.1x
soak: $(STAMP)
	$(PY) tools/soak.py --seconds $(SOAK_SECONDS) --max-growth $(SOAK_MAX_GROWTH)

# the same over 500 generated files, 12 of them edited, with files changed on disk mixed in (issue 42)
soak-big: $(STAMP)
	$(PY) tools/soak.py --families 500 --open 12 --disk 0.15 --seconds $(SOAK_BIG_SECONDS) --max-growth $(SOAK_BIG_MAX_GROWTH)

vsix: $(STAMP)
	$(MAKE) -C vscode-extension vsix

e2e: vsix
	$(MAKE) -C vscode-extension e2e

e2e-nvim: $(STAMP)
	PYTHON="$(PYTHON)" bash tests/nvim/run.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache

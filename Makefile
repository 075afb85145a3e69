# moontable: every target builds what it needs from nothing.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
STUBS  := $(VENV)/mpy-stubs/.installed

WEB    := web
NPM_STAMP := $(WEB)/node_modules/.installed
# Node.js 18+ for the 32-bit MicroPython: the system's, else the venv's
# (pyright[nodejs] brings one); web/node-bin.sh picks it or says what to install.
NODE_DIR = $$(sh $(CURDIR)/$(WEB)/node-bin.sh $(CURDIR)/$(VENV))

.PHONY: test sim typecheck flash hardware web screens

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The MicroPython stubs, pinned in pyproject's typecheck-stubs extra, go into
# a folder of their own (see pyrightconfig.json).
$(STUBS): pyproject.toml $(STAMP)
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml','rb'))['project']['optional-dependencies']['typecheck-stubs']))" > $(VENV)/mpy-stubs.txt
	$(PY) -m pip install --quiet --upgrade --target $(VENV)/mpy-stubs -r $(VENV)/mpy-stubs.txt
	touch $(STUBS)

# The 32-bit MicroPython (the WebAssembly port, pinned in web/package-lock.json)
# for the tests, the benches and the web page.
$(NPM_STAMP): $(WEB)/package.json $(WEB)/package-lock.json $(STAMP)
	cd $(WEB) && sh $(CURDIR)/$(WEB)/node-bin.sh $(CURDIR)/$(VENV) npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

## test: create the venv if needed, install the pinned dependencies, run every test (CPython and MicroPython, 64- and 32-bit, and the emulated Pico)
RULES_LOGS := build/rules-logs
# Every Python of the run (pytest's workers, the board tier, each `moontable`
# and simulator it starts) compiles a module once and reads the bytecode
# after, here, even where the environment says not to write bytecode; the
# tests' assertion rewriting is cached there too (about 10 s a process).
PYCACHE := build/pycache
test: $(STAMP) $(STUBS) $(NPM_STAMP)
	$(PY) tests/upy_build.py build/upy
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null \
	  && echo "   (the web page's tests run in headless Chromium: tests/web)" \
	  || echo "   NOTE: no Chromium found, so the web page's browser tests (tests/web) are skipped; install it with: sudo apt-get install chromium chromium-driver"
	@echo "== the board tier starts now and runs beside the rest (tests/tiers.py)"
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX="$(CURDIR)/$(PYCACHE)" \
	MOONTABLE_RULES_LOGS="$(CURDIR)/$(RULES_LOGS)" PATH="$(CURDIR)/$(VENV)/bin:$(NODE_DIR):$$PATH" \
	  $(PY) tests/tiers.py --rules build/upy -n auto --dist loadfile

## screens: make the docs' screenshots again (docs/screens/*.png) by running the tests that draw them; `make test` never writes them
SCREEN_TESTS := tests/sim/test_sim_moonstar.py tests/sim/test_sim_games.py tests/sim/test_moonstar_screens.py \
	tests/web/test_page.py::test_moonstar_round_with_reload_mid_round
screens: $(STAMP) $(NPM_STAMP)
	MOONTABLE_SCREENS="$(CURDIR)/docs/screens" PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m pytest -q $(SCREEN_TESTS)

## web: build the device's web page into web/dist/ (open it from any static file server: python3 -m http.server -d web/dist)
web: $(STAMP) $(NPM_STAMP)
	$(PY) web/build.py --out $(WEB)/dist

## sim: run the device firmware on the desktop, in this terminal (keys: arrows/u/d, Enter=OK, Backspace=BACK, capitals=long press, q=quit)
sim: $(STAMP)
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/moontable sim

## typecheck: pyright over firmware/ and shared_rules/ with the MicroPython rp2 stubs (also run by make test)
typecheck: $(STAMP) $(STUBS)
	$(VENV)/bin/pyright

## flash: compile the app to .mpy and deploy it to a board (PORT=/dev/ttyACM0 BOARD=pico|esp32 optional)
flash: $(STAMP)
	$(VENV)/bin/moontable flash $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board $(BOARD))

## hardware: regenerate the wiring diagrams and package.json from the pin maps and sources
hardware: $(STAMP)
	$(PY) hardware/wiring.py
	$(PY) -m moontable.deploy --package-json

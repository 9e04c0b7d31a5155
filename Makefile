# Tearing the book — the course's commands. Everything runs from .venv/ at the repo root.
VENV   := .venv
PY     := $(VENV)/bin/python
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
export MPLBACKEND := Agg

.PHONY: install demo test check release lab formgrader grade bench wheel clean-grading hub-install hub

A    ?= 01-packing-by-hand
JOBS ?=

# Set up once (re-run when pyproject.toml or constraints.txt change).
# pip's chatter goes to .venv/install.log; it is shown only when the install fails.
$(VENV)/.installed: pyproject.toml constraints.txt
	@echo "installing the course into $(VENV)/ (log: $(VENV)/install.log) …"
	@test -x $(PY) || python3 -m venv $(VENV)
	@( $(PY) -m pip install --upgrade pip && \
	   $(PY) -m pip install -c constraints.txt -e '.[test,postgres,cluster]' ) > $(VENV)/install.log 2>&1 \
	   || { tail -n 40 $(VENV)/install.log; exit 1; }
	@touch $@

install: $(VENV)/.installed

## The class server's software (docs/class-server.md): the course and JupyterHub in a venv
## every account can run (from SERVER_PYTHON, a Python outside any private home), and the
## proxy from npm at the version course/hub/proxy/package-lock.json pins.
## (constraints.txt, less what course/hub/constraints-override.txt pins for the system's Python)
SERVER_PYTHON ?= /usr/bin/python3
CLASS_VENV    := $(VENV)/class-server
$(CLASS_VENV)/.installed: pyproject.toml constraints.txt course/hub/constraints-override.txt \
                          course/hub/proxy/package-lock.json
	@echo "installing the class server into $(CLASS_VENV)/ (log: $(CLASS_VENV)/install.log) …"
	@test -x $(CLASS_VENV)/bin/python || $(SERVER_PYTHON) -m venv $(CLASS_VENV)
	@( $(CLASS_VENV)/bin/python -m pip install --upgrade pip && \
	   sed -n 's/^\([A-Za-z0-9_.-]*\)==.*/^\1==/p' course/hub/constraints-override.txt \
	     > $(CLASS_VENV)/overridden.txt && \
	   grep -v -f $(CLASS_VENV)/overridden.txt constraints.txt \
	     | cat - course/hub/constraints-override.txt > $(CLASS_VENV)/constraints.txt && \
	   $(CLASS_VENV)/bin/python -m pip install -c $(CLASS_VENV)/constraints.txt -e '.[hub]' && \
	   mkdir -p $(CLASS_VENV)/proxy && \
	   cp course/hub/proxy/package.json course/hub/proxy/package-lock.json $(CLASS_VENV)/proxy/ && \
	   cd $(CLASS_VENV)/proxy && npm ci --omit=dev --no-audit --no-fund ) > $(CLASS_VENV)/install.log 2>&1 \
	   || { tail -n 40 $(CLASS_VENV)/install.log; exit 1; }
	@mkdir -p $(CLASS_VENV)/share/jupyter/lab/settings
	@cp student/overrides.json $(CLASS_VENV)/share/jupyter/lab/settings/overrides.json  # no news toast
	@chmod -R a+rX $(CLASS_VENV)
	@touch $@

hub-install: install $(CLASS_VENV)/.installed

## Start the class server (as root): ROSTER's accounts must exist (python -m course hub accounts).
hub: hub-install
	$(CLASS_VENV)/bin/python -m course hub start $(HUB_ARGS)

## The main job: releases, a synthetic class, autograde, feedback, grades CSV, grade table.
demo: install
	$(PY) -m course demo

## Every test of the course itself (what CI runs).
test: install
	$(PY) -m pytest grader_tests

## The fast tier, for everyday work: the layering (pyproject.toml's import-linter contracts),
## then every test but whole-class gradings, the Dask cluster, the browser, the megabyte
## scans and the judge tests' bubblewrap twins (marked `slow` in grader_tests/conftest.py).
## A test that cannot be quick goes there.
check: install
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -m "not slow" grader_tests

## Regenerate every release/ notebook from source/ (instructors, after editing source/).
release: install
	$(PY) -m course release

## Open the student notebooks in JupyterLab.
lab: install
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp student/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json  # no news toast
	@# student/lab-config turns nbgrader's instructor panels off for this lab only (Validate stays)
	JUPYTER_CONFIG_PATH=$(CURDIR)/student/lab-config$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH} \
	  $(VENV)/bin/jupyter lab --notebook-dir=release

## nbgrader's formgrader for a TA on their own machine (manual grading: assignment 5's verdict
## and card reasons), on COURSE (default: this checkout) at http://127.0.0.1:PORT/formgrader;
## open the URL it prints. Then `python -m course export A` gives the whole score.
COURSE ?= $(CURDIR)
PORT   ?= 8890
formgrader: install
	cd $(COURSE) && $(CURDIR)/$(VENV)/bin/jupyter server --ServerApp.root_dir=$(COURSE) \
	  --ServerApp.default_url=/formgrader --ip=127.0.0.1 --port=$(PORT) --no-browser \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(FORMGRADER_ARGS)

## Autograde every collected submission of assignment A with JOBS workers (default: one per
## core); feedback; CSVs.
grade: install
	$(PY) -m course grade $(A) $(if $(JOBS),--jobs $(JOBS))

## The students' package (course.lessons only) as a wheel: dist/tearing_the_book_lessons-*.whl
wheel: install
	$(PY) -m course.grading.releases.wheel

## Timings (printed, never asserted).
bench: install
	$(PY) -m course.grading.dev.bench $(BENCH_ARGS)

## Remove local grading output (student data): submitted/, autograded work, feedback, reports, logs, gradebook.
clean-grading:
	rm -rf submitted feedback exports logs reports gradebook.db
	find autograded -mindepth 1 ! -name README.md -exec rm -rf {} +

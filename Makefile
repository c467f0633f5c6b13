# One entry point for everything; CI calls the same targets (see .ci/run).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install install-prod client run run-stripe test test-sqlite test-postgres check lint typecheck format lock bench-dispatch bench-history bench-web screenshots prove prove-restart fuzz load clean

install: $(STAMP)

# Developers and CI: everything (runtime + dev tools) from requirements-dev.lock, and the Python
# client (clients/python). A production host installs requirements.lock alone
# (docs/operations.md, "Lean install"): `make install-prod`.
$(STAMP): requirements-dev.lock pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements-dev.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e clients/python
	touch $(STAMP)

# The lean production install: the runtime lock and the package, into PROD_VENV.
PROD_VENV ?= .venv-prod
install-prod: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(PROD_VENV)
	$(PROD_VENV)/bin/pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
	$(PROD_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps .

# The embedded default: SQLite under ./data, dispatcher and demo agents in-process.
run: install
	$(BIN)/agora serve

# The fast in-process suite (everything not marked `process`); every database test runs on
# SQLite and on PostgreSQL (AGORA_TEST_POSTGRES_URL, default the local server).
# `make test COVERAGE=1` runs it under coverage (branches) and fails under the floor in
# pyproject.toml ([tool.coverage.report] fail_under); CI does that.
# JOBS: pytest-xdist workers (auto = one per CPU; JOBS=0 runs in this one process).
JOBS ?= auto
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider -n $(JOBS)
ifeq ($(COVERAGE),1)
PYTEST := $(BIN)/coverage run -m pytest -p no:cacheprovider -n $(JOBS)
endif

test: install
ifeq ($(COVERAGE),1)
	$(BIN)/coverage erase
endif
	$(PYTEST) -m "not process"
ifeq ($(COVERAGE),1)
	$(BIN)/coverage combine -q || true
	$(BIN)/coverage report
endif

test-sqlite: install
	$(BIN)/python -m pytest -m "not process" --backend=sqlite

test-postgres: install
	$(BIN)/python -m pytest -m "not process" --backend=postgres

# Lint: ruff, the domain order (import-linter's contracts in pyproject.toml), dead code, and the
# committed Python client against the OpenAPI document (tools/client.py).
lint: install
	$(BIN)/ruff check src tests bench tools clients/python
	$(BIN)/ruff format --check src tests bench tools clients/python
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tools/deadcode.py
	$(BIN)/python tools/client.py check

# Regenerate the Python client's generated half (clients/python/agora_client/generated) from the
# OpenAPI document this code serves (built in-process; the generator in .venv-client).
client: install
	$(BIN)/python tools/client.py write

typecheck: install
	$(BIN)/mypy
	cd clients/python && ../../$(BIN)/mypy

check: lint typecheck test prove

format: install
	$(BIN)/ruff format src tests bench tools clients/python
	$(BIN)/ruff check --fix src tests bench tools clients/python

# Dispatch latency (p50/p99) and job-creation throughput on SQLite and PostgreSQL (bench/README.md).
bench-dispatch: install
	$(BIN)/python -m bench.dispatch

# History feed at 1 000 000 items on PostgreSQL: p50/p99, ratios, memory, query plans.
bench-history: install
	$(BIN)/python -m bench.history

# Web app: gallery and job page server time, job stream delay, on SQLite and PostgreSQL.
bench-web: install
	$(BIN)/python -m bench.web

# docs/web/ screenshots of the main pages at 1280x800 and 390x844, light and dark (docs/web.md):
# a fresh `agora serve` with the demo, driven by /usr/bin/chromium through Playwright.
screenshots: install
	$(BIN)/python tools/screenshots.py

# Regenerate both locks after changing dependencies in pyproject.toml: requirements.lock (the
# runtime, what production installs) and requirements-dev.lock (runtime + dev, what `make
# install` and CI install), the latter constrained to the former's versions.
lock: install
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -o requirements.lock \
		--no-emit-package pip-system-certs --no-emit-package pip
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -o requirements-dev.lock \
		--constraint requirements.lock --no-emit-package pip-system-certs --no-emit-package pip

clean:
	rm -rf $(VENV) $(PROD_VENV) .venv-client .pytest_cache .mypy_cache .ruff_cache

# Production proof: two API processes + two workers on PostgreSQL and Redis, faults (agents that
# hang, 500, garbage, vanish; a worker SIGKILLed), CLI and server subprocesses, hostile input.
# Everything marked `process`: subprocesses, scale-out, faults, hostile input, schemathesis.
# Each file's tests stay on one worker (--dist loadfile): its module-scoped server starts once.
prove: install
	$(BIN)/python -m pytest -p no:cacheprovider -n $(JOBS) --dist loadfile -m process

# The one fault test that restarts the machine's PostgreSQL (as root): only on request.
prove-restart: install
	AGORA_TEST_RESTART_POSTGRES=1 $(BIN)/python -m pytest -p no:cacheprovider -s tests/production/test_faults.py -k postgres_restart

# Schemathesis with many more examples than the CI smoke run.
fuzz: install
	AGORA_SCHEMATHESIS_EXAMPLES=$${EXAMPLES:-60} $(BIN)/python -m pytest -p no:cacheprovider -s tests/contract/test_schemathesis.py

# wrk against one real server on loopback: reads and job creation vs the /healthz floor
# (needs `apt-get install wrk`; bench/load.py --help for options).
load: install
	$(BIN)/python -m bench.load

# The embedded demo with buying credits offline: localstripe (dev extra) on 127.0.0.1:8420 as
# Stripe, with the Stripe Connect emulation for paying sellers (tests/support/stripe_connect.py),
# its webhooks sent to this server, one credit pack on sale (docs/billing.md).
STRIPE_DEMO_ENV = AGORA_STRIPE_SECRET_KEY=sk_test_demo AGORA_STRIPE_PUBLISHABLE_KEY=pk_test_demo \
	AGORA_STRIPE_WEBHOOK_SECRET=whsec_demo AGORA_STRIPE_API_BASE=http://127.0.0.1:8420
run-stripe: install
	$(BIN)/python -m tests.support.stripe --port 8420 & echo $$! > .localstripe.pid; \
	trap 'kill $$(cat .localstripe.pid); rm -f .localstripe.pid' EXIT; \
	for i in 1 2 3 4 5 6 7 8 9 10; do curl -sf -o /dev/null -d url=http://127.0.0.1:8000/v1/billing/stripe/webhook \
		-d secret=whsec_demo http://127.0.0.1:8420/_config/webhooks/agora && break; sleep 1; done; \
	$(STRIPE_DEMO_ENV) $(BIN)/agora credits packs list | grep -q credits || \
		$(STRIPE_DEMO_ENV) $(BIN)/agora credits packs add --name "100 credits" --credits 100 --price 1000 --currency eur; \
	$(STRIPE_DEMO_ENV) $(BIN)/agora serve

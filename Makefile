# Krónikás — `make help` lists the targets. Only python3 and make are needed: the rest installs itself.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
# uv from PATH, else a private copy installed into .tools/ on first use (the version the image pins).
UV := $(shell command -v uv 2>/dev/null || echo $(CURDIR)/.tools/bin/uv)
RUN := $(UV) run --frozen
SDK_DIR := sdk/kronikas-client
TS_DIR := sdk/typescript
PEERS_DIR := benchmarks/peers
# The Python SDK's hand-written modules (their one home; `make sdk` keeps them), linted as ours are.
SDK_OWN := $(addprefix $(SDK_DIR)/kronikas_client/,socket.py streaming.py replay.py proofs.py arena.py)
# Node is not required: without it the TypeScript client is neither installed, regenerated nor tested.
NODE := $(shell command -v node 2>/dev/null)
export PORT ?= 8000

.PHONY: help install node-install run test test-fast lint format typecheck pytest openapi sdk ts-build generated golden conversations bench bench-arena bench-attacks bench-peers bots arena-bot soak clean fuzz

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-12s %s\n", $$1, $$2}'

$(CURDIR)/.tools/bin/uv:
	@echo "uv not found: installing it into .tools/"
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check uv==0.13.9

.venv/.synced: uv.lock pyproject.toml rules/pyproject.toml services/kronikas/pyproject.toml | $(UV)
	$(UV) sync --frozen
	@touch $@

install: .venv/.synced ## create the virtualenv from the lock file

$(TS_DIR)/node_modules/.package-lock.json: $(TS_DIR)/package-lock.json $(TS_DIR)/package.json
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

ifeq ($(NODE),)
node-install: ## npm ci for the TypeScript client (sdk/typescript), from its lock file, if Node is here
	@echo "node not found: skipping the TypeScript client (sdk/typescript): its install, and its tests in tests/typescript"
else
node-install: $(TS_DIR)/node_modules/.package-lock.json
endif

run: install ## serve on PORT (8000); an embedded Redis under .data/ when REDIS_URL is unset
	$(RUN) python -m kronikas.serve

test: install lint typecheck node-install pytest ## everything CI runs: lint, types, all tests against real Redis

WORKERS ?= 3
FAST := not (processes or cluster or failover or fuzz or bench or generated or browser or node)
test-fast: install ## the inner loop: domain, application and API tests, three workers
	@# No schemathesis or Faker: only the fuzz tests use them, and they cost a second to load.
	@# Three workers (pytest-xdist, WORKERS=3), each on a Redis of its own: the tests wait on Redis
	@# and on sockets as much as they compute. The ten slowest tests are listed at the end, so
	@# that the next slow one is seen.
	@# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: else pytest rewrites and
	@# compiles every test module's asserts again on each run (5 s of the 30).
	PYTHONDONTWRITEBYTECODE= KRONIKAS_FAST=1 HYPOTHESIS_NO_PLUGINS=1 .venv/bin/python -m pytest -p no:schemathesis -p no:faker -m "$(FAST)" -n $(WORKERS) --durations=10

lint: install ## ruff lint and format check
	$(RUN) ruff check rules services tests tools benchmarks bots
	$(RUN) ruff format --check rules services tests tools benchmarks bots
	$(RUN) ruff check --config pyproject.toml $(SDK_OWN)
	$(RUN) ruff format --check --config pyproject.toml $(SDK_OWN)

format: install ## ruff: fix and format
	$(RUN) ruff check --fix rules services tests tools benchmarks bots
	$(RUN) ruff format rules services tests tools benchmarks bots
	$(RUN) ruff check --fix --config pyproject.toml $(SDK_OWN)
	$(RUN) ruff format --config pyproject.toml $(SDK_OWN)

typecheck: install ## mypy --strict on services/ (and on the example bots)
	$(RUN) mypy
	$(RUN) mypy --strict bots/src

pytest: install ## the test suite (REDIS_URL, else testcontainers, else the bundled redis-server)
	@# One session: the browser tests use Playwright's async API on the same event loop as the
	@# other async tests, so `pytest` alone, as anyone types it, runs the whole suite too. It
	@# prints each module's path and the count of tests done (pyproject.toml), and the twenty
	@# slowest tests at the end.
	$(RUN) pytest --durations=20

openapi: install ## export openapi/openapi.json from the code and validate it
	$(RUN) python -m kronikas.export_openapi openapi/openapi.json
	$(RUN) openapi-spec-validator openapi/openapi.json

sdk: openapi ## regenerate the Python and TypeScript SDKs under sdk/ (and the TypeScript's dist/) from openapi/openapi.json
	$(RUN) python -m tools.gen_sdk $(SDK_DIR)
ifeq ($(NODE),)
	@echo "node not found: the TypeScript client ($(TS_DIR)/src/gen) was not regenerated"
else
	@$(MAKE) --no-print-directory node-install
	cd $(TS_DIR) && ./node_modules/.bin/openapi-ts
endif
	@$(MAKE) --no-print-directory ts-build

# dist/ is committed: installing the package from the repository needs no build, serving the web
# table (make run, the image) needs no Node: it serves dist/extras/ at /client/.
ifeq ($(NODE),)
ts-build: ## compile the TypeScript client into sdk/typescript/dist/ (ES modules and types; Node)
	@echo "node not found: $(TS_DIR)/dist/ was not compiled from $(TS_DIR)/src"
else
ts-build: node-install
	cd $(TS_DIR) && node build.mjs
endif

generated: openapi sdk ## regenerate them all, then fail if git sees a difference (or a new file)
	git diff --exit-code -- openapi sdk
	@untracked="$$(git ls-files --others --exclude-standard -- openapi sdk)"; \
	if [ -n "$$untracked" ]; then echo "not committed:"; echo "$$untracked"; exit 1; fi

golden: install ## rewrite the golden playthroughs under tests/golden/
	KRONIKAS_UPDATE_GOLDEN=1 $(RUN) pytest -q -k golden

conversations: install ## record the seat-socket conversations under tests/conversations/ again
	KRONIKAS_UPDATE_CONVERSATIONS=1 $(RUN) pytest -q tests/conversations/test_recorded.py

clean: ## remove the virtualenv, caches and embedded Redis data
	rm -rf .venv .tools .pytest_cache .mypy_cache .ruff_cache .hypothesis .data $(TS_DIR)/node_modules

bench: install ## measure the service against its ceiling, and what WRITE_REPLICAS=1 and metrics cost (prints a table, writes bench-results.json), then what a fair deal costs
	$(RUN) python -m benchmarks.bench $(ARGS)
	$(RUN) python -m benchmarks.deals

bench-arena: install ## sets it takes the arena to rank the house above the good bot, duplicate deals and not (ARGS="--trials 5 --max-sets 200")
	$(RUN) python -m benchmarks.arena_ranking $(ARGS)

bench-attacks: install ## the attacks of docs/security.md, figures (ARGS="--before CHECKOUT --rounds 2")
	$(RUN) python -m benchmarks.attacks $(ARGS)

$(PEERS_DIR)/node_modules/.package-lock.json: $(PEERS_DIR)/package-lock.json $(PEERS_DIR)/package.json
	cd $(PEERS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

ifeq ($(NODE),)
bench-peers:
	@echo "node not found: the peers bench runs boardgame.io and its load generator on Node 20"; exit 1
else
bench-peers: install $(PEERS_DIR)/node_modules/.package-lock.json ## the follow workload beside boardgame.io, alternated (needs Node; ARGS="--seconds 5 --rounds 2")
	$(RUN) python -m benchmarks.peers $(ARGS)
endif

bots: install ## play bots against each other on a fresh service (ARGS="--game cheat --games 20")
	$(RUN) python -m kronikas_bots $(ARGS)

ARENA_URL ?= http://localhost:$(PORT)
arena-bot: install ## the example arena bot: register, enter the arena and play until stopped (ARENA_URL, NAME=my-bot, KIND=cheat)
	$(RUN) python -m kronikas_bots.arena $(ARENA_URL) $(or $(NAME),my-bot) $(or $(KIND),cheat)

soak: install ## 2,000 seats playing over sockets on two workers for 30 minutes (ARGS="--minutes 3"): soak-results.json and its plots
	$(RUN) python -m benchmarks.soak $(ARGS)

fuzz: install ## a long schemathesis run (KRONIKAS_FUZZ_EXAMPLES per operation and mode, default 2000), then the token timing figure
	KRONIKAS_FUZZ_EXAMPLES=$${KRONIKAS_FUZZ_EXAMPLES:-2000} $(RUN) pytest -q -s tests/reliability/test_fuzz.py
	$(RUN) python -m benchmarks.token_timing

# Tuber Market — the two commands that matter: `make up` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export TUBER_ROOT := $(CURDIR)

api-report: deps ## API Extractor reports of @tuber/shell-contract and @tuber/ui (frontends/*/api/): rewrite them after an API change, then review
	@npx tsx frontends/ui/build/api-report.ts --update

.PHONY: seed-market rebuild-prices pacts event-contracts openapi release-service release-remote rollback-remote canary-remote canary-off releases api-report help install deps build up down infra-up infra-down infra-status app-up app-down status test sweep security bench chaos load lint typecheck doctor redrive

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

deps: ## npm dependencies from the lockfile (skipped when node_modules is current)
	@bash infra/local/npm-deps.sh

install: deps ## install every missing local server (cached under ~/.cache/tuber)
	@bash infra/local/install.sh

build: deps ## compile services and bundle front ends
	@npx tsc -b
	@npm run build --workspace frontends/shell --workspace frontends/landing --workspace frontends/buyer --workspace frontends/farmer --workspace frontends/moderation

infra-up: ## start MongoDB-wire (FerretDB), NATS, Redis, MinIO, Keycloak, Mailpit, the SMS catcher, nginx
	@bash infra/local/up.sh

infra-down: ## stop the local servers
	@bash infra/local/down.sh

infra-status: ## show which local servers run
	@bash infra/local/status.sh

app-up: ## (re)start the seven services and the five front-end servers on the current build
	@bash infra/local/app.sh restart

app-down:
	@bash infra/local/app.sh stop

# Processes per service (docs/adr/0039): `make up REPLICAS=2` runs two of each behind the gateway;
# default 1 (or REPLICAS in .env). app.sh and gateway.sh read it from the environment.
ifdef REPLICAS
export REPLICAS
endif
up: install build infra-up app-up ## install what is missing, build, start everything, print the URL (REPLICAS=N: N processes per service)
	@echo; bash -c 'source infra/local/lib.sh && echo "Tuber Market is up: $$PUBLIC_URL"'

down: app-down infra-down ## stop everything

status: infra-status
	@bash infra/local/app.sh status

doctor: ## what is installed, cached, running (and whose), and what is missing, with hints
	@bash infra/local/doctor.sh

test: install build ## every test: starts servers once, runs unit, integration, browser and security (attack suite) tests, stops what it started
	@bash test/run.sh

sweep: install build ## every page at 360 px in all four translated languages, looking for English (make test sweeps Pidgin only)
	@SWEEP_LANGUAGES=all TEST_PROJECTS=browser bash test/run.sh test/e2e/english-sweep.test.ts

security: install build ## the attack suite alone (docs/security.md) with the full Schemathesis run; `make test` runs it bounded
	@TEST_PROJECTS=security SCHEMATHESIS_MODE=full bash test/run.sh

lint:
	@npx eslint .

typecheck:
	@npx tsc -b

bench: install build ## benchmarks under bench/ (ratios against a baseline in the same run)
	@bash bench/run.sh

chaos: install build ## fault injection (docs/reliability.md): kill/restart/pause servers under real traffic, check every effect by key; CHAOS_SCALE=short for the CI size
	@bash test/chaos/run.sh

# Remote releases as pointer moves (docs/delivery.md): immutable builds under /mf/<name>/<version>/, the live
# list in the release store's remotes.json. NAME=landing|buyer|farmer|moderation (the remote's name; releases.json
# records the moderation desk as the unit moderation-ui).
RELEASE := bash -c 'source infra/local/lib.sh && exec npx tsx infra/release/remote.ts "$$@"' release
seed-market: ## a year of plausible sales through the running stack's real API, for the price guide (WEEKS FARMERS BUYERS SALES SEED)
	@bash infra/seed/market.sh

rebuild-prices: ## rebuild the price guide from the event stream beside the live one and compare (REPLACE=1 to swap it in)
	@bash infra/seed/rebuild-prices.sh $(if $(REPLACE),--replace)

release-remote: ## publish this checkout's build of remote NAME (make build first), or COMMIT=<commit>'s, and make it live
	@$(RELEASE) release $(NAME) $(if $(COMMIT),--commit $(COMMIT))

rollback-remote: ## point remote NAME back at the version live before the current one (no rebuild)
	@$(RELEASE) rollback $(NAME)

canary-remote: ## a released VERSION of remote NAME for PERCENT % of signed-in people
	@$(RELEASE) canary $(NAME) $(VERSION) $(PERCENT)

canary-off: ## end remote NAME's canary
	@$(RELEASE) canary-off $(NAME)

release-service: ## record that service NAME of COMMIT (default HEAD) is what runs in production (releases.json, compose and Helm files)
	@npx tsx infra/release/unit-versions.ts release $(NAME) $(COMMIT)
releases: ## what is live, canaried and released, per remote
	@$(RELEASE) status

openapi: ## write each service's OpenAPI document as it serves it to contracts/openapi/ (the stack must run); review the diff
	@npx tsx infra/release/openapi-snapshots.ts
pacts: ## rewrite contracts/pacts/ from the consumer tests (front ends' API clients, event consumers); review the diff
	@rm -f contracts/pacts/*.json
	@PACT_WRITE=1 npx vitest run --project unit /test/unit/pact-
event-contracts: ## write contracts/events/ (each event's schema) and record fresh samples of each from the running stack's stream
	@bash -c 'source infra/local/lib.sh && NATS_PORT=$$NATS_PORT exec npx tsx --conditions=@tuber/source infra/release/event-contracts.ts --samples'
redrive: ## dead letters (docs/adr/0024): list parked events; re-drive after the fix: make redrive ARGS="redrive --consumer NAME"
	@bash infra/local/redrive.sh $(ARGS)

load: ## buyer and farmer journeys through the gateway (LOAD_USERS virtual users for LOAD_SECONDS; LOAD_MODE=browse: fixed-rate reads at LOAD_RATE), this machine only
	@KEYCLOAK_AUTH_CLIENT_SECRET=$$(cat .run/secrets/keycloak-auth-client-secret) npx tsx --conditions=@tuber/source bench/load/generate.ts

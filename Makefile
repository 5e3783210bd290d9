# Vendfleet — the two commands: `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := run

DATA ?= data
PORT ?= 8080
CARGO ?= cargo

.PHONY: run server test rust-lane web-lane bench bin web web-deps chromium rust-checks rust-tests backup-drill aws-lint web-checks openapi-check fuzz-api e2e lambdas sam-build deploy clean-data

## run: build the web app and the server side by side (no AWS SDK), then serve both on
## http://127.0.0.1:$(PORT)
run:
	$(MAKE) --no-print-directory -j2 web server
	./target/first-start/vendfleet serve --data $(DATA) --port $(PORT) --web web/dist --demo

## server: the `vendfleet` binary of `make run` (profile first-start: quick to build, see Cargo.toml)
server:
	$(CARGO) build --profile first-start -p vendfleet-local

## test: everything CI runs (formatting, lints, Rust tests on SQLite and moto, template lint, web unit tests, API fuzzing, browser tests)
## Two lanes side by side (the Rust lane leaves a core idle in its long serial compiles; the web
## lane fills it), each lane's output printed in one piece when it ends: the lints and the test
## build, and the web's checks. Then the OpenAPI check, and the Rust tests, the fuzzing and the
## browser tests side by side (each starts its own server on a free port and data directory; the
## Rust tests spend much of their time waiting on moto).
test:
	$(MAKE) --no-print-directory -j2 --output-sync=target rust-lane web-lane
	$(MAKE) --no-print-directory openapi-check
	$(MAKE) --no-print-directory -j3 --output-sync=target rust-tests fuzz-api e2e backup-drill

rust-lane: rust-checks
	$(MAKE) --no-print-directory bin

web-lane: aws-lint
	$(MAKE) --no-print-directory web-checks

rust-checks:
	python3 infra/module-loops.py
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## rust-tests: on SQLite and on moto; tests/lambdas/emulator.rs runs the Lambda binaries under cargo-lambda's
## runtime API emulator (.venv-lambda, created here when missing)
rust-tests:
	infra/cargo-lambda.sh --version
	infra/with-moto.sh $(CARGO) test --workspace

## aws-lint: cfn-lint and `sam validate --lint` on template.yaml (offline, each in its own virtualenv)
aws-lint:
	infra/cfn-lint.sh
	infra/sam.sh validate --lint --region us-east-1

## web-deps: node_modules as the lock file pins them (from npm's cache when it has them). At a
## lower priority: beside the server's build (`make run`) the Rust compiler keeps the cores, and
## the web takes what it leaves idle (the build ends on long single-crate steps).
web-deps:
	cd web && if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then nice -n 15 npm ci --no-audit --no-fund --prefer-offline; fi

## web: the dashboard's bundle in web/dist (`vite build` only: the type check and the lint are
## `make test`'s, in web-checks), at a lower priority (see web-deps)
web: web-deps
	cd web && nice -n 15 npm run bundle

web-checks: web-deps
	cd web && npm run lint && npm run typecheck && npm test && npm run build

## bin: the debug `vendfleet` as `cargo test --workspace` builds it (the workspace's features), so the
## checks after the Rust tests reuse that binary instead of building another with other features
## (after rust-tests this takes a second).
bin:
	$(CARGO) test --workspace --no-run -q

## The web's API types come from the server's OpenAPI document: the committed copy must match.
openapi-check: bin
	./target/debug/vendfleet openapi > target/openapi.json
	diff -u web/openapi.json target/openapi.json || { echo "web/openapi.json is stale: run 'make openapi'"; exit 1; }

## fuzz-api: schemathesis over /api/openapi.json against a running `vendfleet serve` (about 2.5 minutes; infra/fuzz-api.sh)
## backup-drill: the README's restore drill on the real binary, with Litestream (infra/backup-drill.sh)
backup-drill: bin
	VENDFLEET_BIN=target/debug/vendfleet infra/backup-drill.sh

fuzz-api: bin
	VENDFLEET_BIN=target/debug/vendfleet CARGO=$(CARGO) infra/fuzz-api.sh

.PHONY: openapi
openapi: bin
	./target/debug/vendfleet openapi > web/openapi.json
	cd web && npm run gen:api

chromium:
	command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

e2e: chromium web bin
	cd web && VENDFLEET_BIN=../target/debug/vendfleet npm run e2e

## bench: performance figures (medians), never timed tests. The reports part seeds a
## 1,000-machine x 365-day fleet into target/bench-fleet/ once (about 12.5 minutes, 8.5 GB) and compares
## with DuckDB (PyPI, in .venv-bench). Then every Lambda function's cold start (init duration,
## first invocation, peak memory), built natively in release as for Lambda; the sales engine alone
## at 10,000 machines x 365 days in memory (memory, commits, sums, the log's index and its pages); last, 200 random report
## queries timed and compared with DuckDB (it fails when an answer differs). Also a Nayax message's
## latency from its queue (moto) to the ledger through the embedded server's long polling.
bench:
	test -x .venv-bench/bin/python || { python3 -m venv .venv-bench && .venv-bench/bin/python -m pip install --quiet --disable-pip-version-check -r infra/requirements-bench.txt; }
	$(CARGO) run --profile local -p vendfleet-local -- bench
	$(CARGO) run --profile local -p vendfleet-local -- bench --report-file
	$(CARGO) run --profile local -p vendfleet-local -- bench --import
	infra/with-moto.sh $(CARGO) test -p vendfleet-http --test api dynamo_reads:: -- --ignored --nocapture
	infra/with-moto.sh $(CARGO) test -p vendfleet-http --test api data_sources::latency -- --ignored --nocapture
	infra/with-moto.sh $(CARGO) test --release -p vendfleet-lambdas --test lambdas cold_start:: -- --ignored --nocapture
	$(CARGO) test --profile local -p vendfleet-app --lib engine_at_scale -- --ignored --nocapture --test-threads=1
	$(CARGO) run --profile local -p vendfleet-local -- bench --random

## lambdas: every function for arm64 in release, as Lambda runs it (cargo-lambda and Zig from
## PyPI in .venv-lambda; one workspace, one target directory), then each bootstrap's size.
lambdas:
	infra/cargo-lambda.sh build --release --arm64 -p vendfleet-lambdas
	@for f in target/lambda/*/bootstrap; do printf '%-16s %6s KiB\n' "$$(basename "$$(dirname "$$f")")" "$$(( $$(stat -c %s "$$f") / 1024 ))"; done

## sam-build: `sam build` as a deploy runs it (each function through cargo-lambda, arm64 release)
sam-build: lambdas
	infra/sam.sh build --beta-features

## deploy: sam build + sam deploy (guided the first time), then the web app to the stack's bucket
## with its config.json, and a CloudFront invalidation (infra/deploy.sh, docs/deployment.md)
deploy:
	infra/deploy.sh

clean-data:
	rm -rf $(DATA)

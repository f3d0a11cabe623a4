# anvil — the two commands people need are `make run` and `make test`.
SHELL := /bin/bash
NODE := node --import tsx
export NO_COLOR ?= 1

.PHONY: run test install generate check-generated lint-spec typecheck migration bench mutate fuzz clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# What production runs: src/ and its libraries bundled into dist/ (see scripts/build.ts).
BUILD_INPUTS := $(shell find src generated spec -type f 2>/dev/null) scripts/build.ts package-lock.json
dist/.built: node_modules/.installed $(BUILD_INPUTS)
	$(NODE) scripts/build.ts
	@touch $@

install: node_modules/.installed dist/.built

## Start the server (embedded PGlite in $DATA_DIR unless DATABASE_URL is set).
run: install
	node dist/main.js

## Type-check, then run every test file (PGlite, or PostgreSQL when DATABASE_URL is set).
test: install typecheck
	$(NODE) scripts/run-tests.ts $(TESTS)

## Regenerate generated/ from spec/openapi.yaml and proto/, and the handler registry from src/api/operations/.
generate: install
	$(NODE) scripts/generate.ts

## Fails when generated/ or the handler registry is not what spec/, proto/ and the handler files produce.
GENERATED := generated src/api/operations/index.ts
check-generated: generate
	@git diff --exit-code --stat -- $(GENERATED) || { echo "generated/ or src/api/operations/index.ts is stale: run 'make generate' and commit it"; exit 1; }
	@test -z "$$(git status --porcelain -- $(GENERATED))" || { echo "generated/ or src/api/operations/index.ts has uncommitted files"; exit 1; }

lint-spec: install
	npx --no-install redocly lint spec/openapi.yaml

typecheck: install
	npx --no-install tsc -p .

## After changing src/db/schema: write the next migration (name it: make migration NAME=add_repos).
migration: install
	npx --no-install drizzle-kit generate --name $(NAME)

bench: install
	$(NODE) scripts/bench.ts

## Fuzz a running server (BASE_URL, FUZZ_TOKEN or FUZZ_USER/FUZZ_PASSWORD) or a fresh anvil; options in FUZZ_ARGS (docs/fuzzing.md).
fuzz: install
	$(NODE) fuzz/cli.ts $(FUZZ_ARGS)

## Mutation testing (StrykerJS) of the permission, auth, token-scope and branch-protection code; see docs/mutation.md.
mutate: install
	$(NODE) scripts/mutate.ts

clean:
	rm -rf data node_modules

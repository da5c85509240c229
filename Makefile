# Umbra build. `make` installs Node 24 into .node/ when the machine's Node is older than 22, installs dependencies,
# builds the Rust addon (skipped with one line when cargo is missing: the TypeScript fallback is used), compiles
# the TypeScript into dist/, bundles the web wallet's page (scripts/build-web-wallet.mjs) and bundles the programs
# bin/umbra starts into dist/bundle/.
.PHONY: all node deps native build bundle lint lint-code lint-format fmt test bench clean

NPM_STAMP := node_modules/.umbra-installed
BIN := node_modules/.bin

# scripts/install-node.mjs must see the machine's own Node; every other recipe runs on the project's Node, which is
# .node/bin/node when that script installed one (the directory is absent otherwise, and PATH skips it).
MACHINE_PATH := $(subst $(CURDIR)/.node/bin:,,$(PATH))
export PATH := $(CURDIR)/.node/bin:$(PATH)
# npm looks for its global npmrc beside the Node that runs it (and under --prefix): keep the machine's (its CA file).
MACHINE_NODE := $(realpath $(shell PATH='$(MACHINE_PATH)' command -v node))
export npm_config_globalconfig := $(abspath $(dir $(MACHINE_NODE))../etc/npmrc)

all: node deps native build bundle

node:
	@PATH='$(MACHINE_PATH)' node scripts/install-node.mjs

$(NPM_STAMP): package.json package-lock.json | node
	npm install --no-audit --no-fund --loglevel=error
	@touch $(NPM_STAMP)

deps: $(NPM_STAMP)

native: deps
	@sh core-native/build.sh

build: deps
	$(BIN)/tsc -p tsconfig.json
	node scripts/build-web-wallet.mjs

# The programs a node starts (the CLI, its worker threads and helper process), each bundled into dist/bundle/, which
# bin/umbra runs: fewer files to load and less code held in memory (docs/operations.md § Memory).
bundle: build
	node scripts/bundle.mjs

# Every check that fails the build short of the tests: lint rules, layering, no path outside the repository, Rust
# lints, then formatting.
lint: lint-code lint-format

lint-code: deps
	$(BIN)/biome lint --error-on-warnings .
	$(BIN)/depcruise --config .dependency-cruiser.cjs core-native/ts protocol host wallet plugins cli
	node scripts/check-layers.mjs
	node scripts/check-standalone.mjs
	node scripts/check-function-length.mjs
	@if command -v cargo >/dev/null 2>&1; then cd core-native && cargo clippy --quiet --all-targets -- -D warnings; \
	else echo "cargo not found: Rust lint skipped"; fi

lint-format: deps
	$(BIN)/biome format .
	@if command -v cargo >/dev/null 2>&1; then cd core-native && cargo fmt --check; \
	else echo "cargo not found: Rust format check skipped"; fi

# Formats the TypeScript, scripts and JSON (biome.jsonc) and the Rust crate (core-native/rustfmt.toml) in place.
fmt: deps
	$(BIN)/biome format --write .
	@if command -v cargo >/dev/null 2>&1; then cd core-native && cargo fmt; else echo "cargo not found: Rust not formatted"; fi

# The checks, then the whole suite (tap), ending with a line `N passed, N failed`. The explorer's browser test needs
# Chromium: installed when missing where this machine can (root with apt-get), else the run stops saying what to do.
test: all lint
	@sh scripts/ensure-chromium.sh
	node scripts/run-tests.mjs

# Every benchmark in bench/, or one: make bench BENCH=rpc
bench: all
	node scripts/run-bench.mjs $(BENCH)

clean:
	rm -rf dist core-native/target core-native/*.node bench/results

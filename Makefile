# Umbra build. `make` installs dependencies, builds the Rust addon (skipped with one line when cargo is missing:
# the TypeScript fallback is used) and compiles the TypeScript into dist/.
.PHONY: all deps native build test bench clean

NPM_STAMP := node_modules/.umbra-installed

all: deps native build

$(NPM_STAMP): package.json package-lock.json
	npm install --no-audit --no-fund --loglevel=error
	@touch $(NPM_STAMP)

deps: $(NPM_STAMP)

native: deps
	@sh core-native/build.sh

build: deps
	npx tsc -p tsconfig.json

# The whole suite (tap), ending with a line `N passed, N failed`.
test: all
	node scripts/run-tests.mjs

# Every benchmark in bench/, or one: make bench BENCH=rpc
bench: all
	node scripts/run-bench.mjs $(BENCH)

clean:
	rm -rf dist core-native/target core-native/*.node bench/results

#!/bin/sh
# Builds the native addon core-native/umbra-core.<platform>.node with @napi-rs/cli (called by `make`).
# Without cargo it says so in one line and succeeds: Umbra then runs on the TypeScript fallback.
set -e
cd "$(dirname "$0")"
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: native addon skipped, the TypeScript fallback will be used"
  exit 0
fi
# The addon is built on the machine that runs it, so let rustc use this CPU's instructions (mulx/adx make the
# BN254 field ~20% faster). UMBRA_PORTABLE=1 builds for the baseline CPU instead (for copying the addon elsewhere).
if [ -z "$UMBRA_PORTABLE" ]; then
  export RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native"
fi
# napi warns on every build that we do not use napi-derive (we declare Node-API ourselves): drop that noise.
status=0
output=$(../node_modules/.bin/napi build --release --platform --no-js 2>&1) || status=$?
printf '%s\n' "$output" | grep -v 'napi-derive' || true
exit $status

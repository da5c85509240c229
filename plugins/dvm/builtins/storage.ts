/** Contract storage built-ins: LOAD, EXISTS, STORE, DELETE (docs/contracts.md § Built-in functions), and VERSION. */
import { ContractPanic } from '../execution-state.js';
import { fixed, stringArg, valueArg, type Builtin } from './builtin.js';

/** Semantic version MAJOR.MINOR.PATCH[-pre][+build], no leading zeros. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const STORAGE_BUILTINS: readonly Builtin[] = [
  {
    name: 'VERSION',
    gas: 1000,
    ...fixed(1),
    call(_state, args) {
      const version = stringArg('VERSION', args, 0);
      if (!SEMVER.test(version))
        throw new ContractPanic(`VERSION: ${JSON.stringify(version)} is not a semantic version like 1.2.3`);
      return 1n;
    },
  },
  { name: 'LOAD', gas: 5000, ...fixed(1), call: (state, args) => state.load(valueArg('LOAD', args, 0)) },
  {
    name: 'EXISTS',
    gas: 5000,
    ...fixed(1),
    call: (state, args) => (state.exists(valueArg('EXISTS', args, 0)) ? 1n : 0n),
  },
  {
    name: 'STORE',
    gas: 10000,
    ...fixed(2),
    call(state, args) {
      state.store(valueArg('STORE', args, 0), valueArg('STORE', args, 1));
      return 1n;
    },
  },
  {
    name: 'DELETE',
    gas: 3000,
    ...fixed(1),
    call(state, args) {
      state.store(valueArg('DELETE', args, 0), undefined);
      return 1n;
    },
  },
];

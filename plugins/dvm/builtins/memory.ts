/** Session memory: MAPEXISTS, MAPGET, MAPSTORE, MAPDELETE — shared by every frame of one call, never stored. */
import { ContractPanic, describeKey } from '../execution-state.js';
import { fixed, valueArg, type Builtin } from './builtin.js';

export const MEMORY_BUILTINS: readonly Builtin[] = [
  {
    name: 'MAPEXISTS',
    gas: 1000,
    ...fixed(1),
    call: (state, args) => (state.mapGet(valueArg('MAPEXISTS', args, 0)) === undefined ? 0n : 1n),
  },
  {
    name: 'MAPGET',
    gas: 1000,
    ...fixed(1),
    call(state, args) {
      const key = valueArg('MAPGET', args, 0);
      const value = state.mapGet(key);
      if (value === undefined) throw new ContractPanic(`MAPGET: nothing stored under ${describeKey(key)} in this call`);
      return value;
    },
  },
  {
    name: 'MAPSTORE',
    gas: 1000,
    ...fixed(2),
    call(state, args) {
      state.mapSet(valueArg('MAPSTORE', args, 0), valueArg('MAPSTORE', args, 1));
      return 1n;
    },
  },
  {
    name: 'MAPDELETE',
    gas: 1000,
    ...fixed(1),
    call(state, args) {
      state.mapSet(valueArg('MAPDELETE', args, 0), undefined);
      return 1n;
    },
  },
];

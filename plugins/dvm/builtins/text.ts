/** Strings, numbers and hashes: ATOI, ITOA, SHA256, SHA3256, KECCAK256, HEX, HEXDECODE, MIN, MAX, STRLEN, SUBSTR. */
import { byteString, stringBytes } from '../../../protocol/contract-values.js';
import { ContractPanic } from '../execution-state.js';
import { UINT64_MASK } from '../limits.js';
import { fixed, stringArg, uintArg, type Builtin } from './builtin.js';

type HashName = 'sha256' | 'sha3_256' | 'keccak256';
const hash = (name: string, fn: HashName): Builtin => ({
  name,
  gas: 25000,
  ...fixed(1),
  call: (state, args) => byteString(state.env.core[fn](stringBytes(stringArg(name, args, 0)))),
});

export const TEXT_BUILTINS: readonly Builtin[] = [
  {
    name: 'ATOI',
    gas: 5000,
    ...fixed(1),
    call(_state, args) {
      const text = stringArg('ATOI', args, 0);
      if (!/^[0-9]+$/.test(text)) throw new ContractPanic(`ATOI: ${JSON.stringify(text)} is not a decimal number`);
      const value = BigInt(text);
      if (value > UINT64_MASK) throw new ContractPanic(`ATOI: ${text} does not fit in a Uint64`);
      return value;
    },
  },
  { name: 'ITOA', gas: 5000, ...fixed(1), call: (_state, args) => uintArg('ITOA', args, 0).toString() },
  hash('SHA256', 'sha256'),
  hash('SHA3256', 'sha3_256'),
  hash('KECCAK256', 'keccak256'),
  {
    name: 'HEX',
    gas: 10000,
    ...fixed(1),
    call: (_state, args) => Buffer.from(stringArg('HEX', args, 0), 'latin1').toString('hex'),
  },
  {
    name: 'HEXDECODE',
    gas: 10000,
    ...fixed(1),
    call(_state, args) {
      const text = stringArg('HEXDECODE', args, 0);
      if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
        throw new ContractPanic(`HEXDECODE: ${JSON.stringify(text)} is not an even number of hex digits`);
      return Buffer.from(text, 'hex').toString('latin1');
    },
  },
  {
    name: 'MIN',
    gas: 5000,
    ...fixed(2),
    call(_state, args) {
      const a = uintArg('MIN', args, 0);
      const b = uintArg('MIN', args, 1);
      return a < b ? a : b;
    },
  },
  {
    name: 'MAX',
    gas: 5000,
    ...fixed(2),
    call(_state, args) {
      const a = uintArg('MAX', args, 0);
      const b = uintArg('MAX', args, 1);
      return a > b ? a : b;
    },
  },
  { name: 'STRLEN', gas: 20000, ...fixed(1), call: (_state, args) => BigInt(stringArg('STRLEN', args, 0).length) },
  {
    name: 'SUBSTR',
    gas: 20000,
    ...fixed(3),
    call(_state, args) {
      const text = stringArg('SUBSTR', args, 0);
      const start = uintArg('SUBSTR', args, 1);
      const length = uintArg('SUBSTR', args, 2);
      const size = BigInt(text.length);
      if (start >= size) return '';
      const end = (start + length) & UINT64_MASK;
      if (end < start) throw new ContractPanic(`SUBSTR: offset ${start} plus length ${length} overflows a Uint64`);
      return text.slice(Number(start), Number(end > size ? size : end));
    },
  },
];

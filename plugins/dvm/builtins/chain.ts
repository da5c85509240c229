/**
 * What a call knows about where it runs: ids, block, signer, deposits, RANDOM, and UPDATE_SC_CODE and PANIC.
 * Ids are raw bytes. SIGNER() is the signer's raw 33-byte key, or "" when the sender is anonymous (docs/contracts.md;
 * the reference returns 33 zero bytes, which any anonymous caller would then match).
 */
import { compileFailureText } from '../../../protocol/contract-call-rules.js';
import { ContractCompileError } from '../../../host/services/contract-vm.js';
import { ContractPanic } from '../execution-state.js';
import { assetArg, fixed, uintArg, type Builtin } from './builtin.js';

const ZERO_ASSET = '\0'.repeat(32);

export const CHAIN_BUILTINS: readonly Builtin[] = [
  { name: 'SCID', gas: 2000, ...fixed(0), call: (state) => state.context.scid },
  { name: 'BLID', gas: 2000, ...fixed(0), call: (state) => state.context.blid },
  { name: 'TXID', gas: 2000, ...fixed(0), call: (state) => state.context.txid },
  { name: 'COIN', gas: 10000, ...fixed(0), call: () => ZERO_ASSET },
  { name: 'BLOCK_HEIGHT', gas: 2000, ...fixed(0), call: (state) => state.context.height },
  { name: 'BLOCK_TIMESTAMP', gas: 2500, ...fixed(0), call: (state) => state.context.timestampMs / 1000n },
  { name: 'SIGNER', gas: 5000, ...fixed(0), call: (state) => state.context.signer ?? '' },
  { name: 'COINVALUE', gas: 10000, ...fixed(0), call: (state) => state.deposit(ZERO_ASSET) },
  {
    name: 'ASSETVALUE',
    gas: 10000,
    ...fixed(1),
    call: (state, args) => state.deposit(assetArg('ASSETVALUE', args, 0)),
  },
  {
    name: 'RANDOM',
    gas: 2500,
    minArgs: 0,
    maxArgs: 1,
    call(state, args) {
      if (args.length === 0) return state.random().next();
      const limit = uintArg('RANDOM', args, 0);
      if (limit === 0n) throw new ContractPanic('RANDOM: the limit must be above 0');
      return state.random().next() % limit;
    },
  },
  {
    name: 'UPDATE_SC_CODE',
    gas: 5000,
    ...fixed(1),
    call(state, args) {
      const code = args[0];
      if (typeof code !== 'string') return 0n;
      // Unlike the reference we refuse code that does not compile: it would make the contract unusable forever.
      try {
        state.env.compile(Buffer.from(code, 'latin1').toString('utf8'));
      } catch (error) {
        if (!(error instanceof ContractCompileError)) throw error;
        throw new ContractPanic(`UPDATE_SC_CODE: the new code does not compile: ${compileFailureText(error)}`);
      }
      state.setCode(code);
      return 1n;
    },
  },
  {
    name: 'PANIC',
    gas: 10000,
    minArgs: 0,
    maxArgs: Infinity,
    unevaluatedArgs: true,
    call() {
      throw new ContractPanic('PANIC');
    },
  },
];

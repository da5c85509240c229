/**
 * Contract VM speed: `line-loop` — microseconds per interpreted line of a loop-heavy contract (each call runs
 * close to the 10M compute-gas limit); `lottery-call` — microseconds per `Lottery` call of the sample lottery,
 * store and balances carried from call to call as on the chain; `contract-test-samples` — milliseconds to run every
 * test file of examples/contracts (`umbra contract test`). Targets: line-loop ≤ 0.5 µs (reference ≈ 1.3 µs),
 * contract-test-samples ≤ 2000 ms.
 */
import { readFileSync } from 'node:fs';
import { loadCore } from '../core-native/ts/index.js';
import { runContractRequest } from '../cli/contract-runner.js';
import { ContractTester, findTestFiles } from '../cli/contract-test-runner.js';
import { addressCodec } from '../protocol/address.js';
import { publicKeyOf } from '../protocol/keys.js';
import { NETWORKS } from '../protocol/network.js';
import type { CallContext } from '../host/services/contract-vm.js';
import type { DvmValue } from '../protocol/contract-values.js';
import { DvmContractVm } from '../plugins/dvm/contract-vm.js';
import { runBench, timeIt, type BenchRow } from './harness.js';

const core = await loadCore();
const addresses = addressCodec('simulator', core);
const vm = new DvmContractVm(core, addresses);
const rows: BenchRow[] = [];
const ZERO = '\0'.repeat(32);

function context(overrides: Partial<CallContext> = {}): CallContext {
  return {
    scid: '\x80'.repeat(32),
    blid: ZERO,
    txid: ZERO,
    height: 1n,
    timestampMs: 0n,
    signer: undefined,
    deposits: new Map(),
    fee: 0n,
    argumentsGas: 0n,
    ...overrides,
  };
}

// A loop of three lines per pass (arithmetic, a compare-and-jump, string work every pass).
const loop = vm.compile(
  [
    'Function Loop() Uint64',
    '10 DIM i, acc AS Uint64',
    '20 LET i = i + 1',
    '30 LET acc = acc * 31 + i & 65535',
    '40 IF i < 450 THEN GOTO 20',
    '50 RETURN 0',
    'End Function',
  ].join('\n'),
);
const emptyStore = { load: () => undefined, balance: () => 0n };
const probe = vm.call({ contract: loop, entrypoint: 'Loop', args: [], context: context(), storage: emptyStore });
if (!probe.committed) throw new Error(`line-loop contract failed: ${probe.error?.message}`);
const linesPerCall = 1 + 3 * 450 + 1;
const loopUs = timeIt(
  () => vm.call({ contract: loop, entrypoint: 'Loop', args: [], context: context(), storage: emptyStore }),
  { minMs: 2000 },
);
rows.push({ case: 'line-loop', impl: 'dvm', unit: 'µs/line', value: loopUs / linesPerCall });

// Lottery plays by two alternating players; every second call pays out.
const lottery = vm.compile(readFileSync('examples/contracts/lottery.bas', 'utf8'));
const players = [1, 2].map((seed) => {
  const secret = new Uint8Array(32);
  secret[31] = seed;
  return Buffer.from(publicKeyOf(core, secret, NETWORKS.simulator.generatorDomain)).toString('latin1');
});
const store = new Map<string, DvmValue>();
const keyOf = (key: DvmValue): string => (typeof key === 'bigint' ? `U${key}` : `S${key}`);
let balance = 0n;
const storage = { load: (key: DvmValue) => store.get(keyOf(key)), balance: () => balance };
const apply = (result: ReturnType<typeof vm.call>, deposit: bigint): void => {
  if (!result.committed) throw new Error(`lottery call failed: ${result.error?.message ?? 'returned nonzero'}`);
  for (const w of result.writes) w.value === undefined ? store.delete(keyOf(w.key)) : store.set(keyOf(w.key), w.value);
  balance += deposit - result.transfers.reduce((sum, t) => sum + t.amount, 0n);
};
apply(
  vm.call({ contract: lottery, entrypoint: 'Initialize', args: [], context: context({ signer: players[0] }), storage }),
  0n,
);
let play = 0;
const lotteryUs = timeIt(
  () => {
    const deposits = new Map([[ZERO, 1000n]]);
    const txid = Buffer.alloc(32);
    txid.writeUInt32BE(++play);
    apply(
      vm.call({
        contract: lottery,
        entrypoint: 'Lottery',
        args: [],
        context: context({ signer: players[play % 2], deposits, txid: txid.toString('latin1') }),
        storage,
      }),
      1000n,
    );
  },
  { minMs: 2000 },
);
rows.push({ case: 'lottery-call', impl: 'dvm', unit: 'µs/call', value: lotteryUs });

// Every sample contract's test file, as `umbra contract test examples/contracts` runs them (in-process).
const tester = new ContractTester({
  core,
  vm,
  addresses,
  runner: { run: (request) => runContractRequest(vm, addresses, core, request) },
});
const testFiles = findTestFiles(['examples/contracts']);
const samplesUs = timeIt(
  () => {
    for (const file of testFiles) {
      const failed = tester.runFile(file).outcomes.find((o) => !o.ok);
      if (failed) throw new Error(`${file}: ${failed.name} fails: ${failed.failure}`);
    }
  },
  { minMs: 2000 },
);
rows.push({ case: 'contract-test-samples', impl: 'dvm', unit: 'ms', value: samplesUs / 1000 });
runBench('dvm', rows);

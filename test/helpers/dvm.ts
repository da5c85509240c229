/**
 * Running contracts in tests: the real `dvm` plugin's VM through the same JSON runner as `umbra contract run`,
 * and the CLI's `ContractSession` (store, balances and code carried between committed calls as the chain would) on
 * it, so that sample contracts can be played through.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Core } from '../../core-native/ts/core.js';
import { loadCore } from '../../core-native/ts/index.js';
import { runContractRequest, type RunResponse } from '../../cli/contract-runner.js';
import { COIN_HEX, ContractSession as HostSession } from '../../cli/contract-session.js';
import { addressCodec, encodeAddress, type AddressCodec } from '../../protocol/address.js';
import { publicKeyOf } from '../../protocol/keys.js';
import { NETWORKS } from '../../protocol/network.js';
import { DvmContractVm } from '../../plugins/dvm/contract-vm.js';
import { REPO_ROOT } from './cli.js';

export { COIN_HEX };
export type { CallOptions } from '../../cli/contract-session.js';

export interface Dvm {
  core: Core;
  vm: DvmContractVm;
  addresses: AddressCodec;
  run(request: Record<string, unknown>): RunResponse;
}

let shared: Promise<Dvm> | undefined;

/** The VM on the simulator network (fallback core: the VM only needs hashes and point checks). */
export function dvm(): Promise<Dvm> {
  shared ??= (async () => {
    const core = await loadCore({ impl: 'fallback' });
    const addresses = addressCodec('simulator', core);
    const vm = new DvmContractVm(core, addresses);
    return { core, vm, addresses, run: (request) => runContractRequest(vm, addresses, core, request) };
  })();
  return shared;
}

/** A sample contract's source from examples/contracts/. */
export function sampleContract(name: string): string {
  return readFileSync(join(REPO_ROOT, 'examples', 'contracts', `${name}.bas`), 'utf8');
}

/** A deterministic test account: its address on the simulator network and its raw key in hex. */
export function account(core: Core, seed: number): { address: string; rawHex: string } {
  const secret = new Uint8Array(32);
  secret[31] = seed;
  secret[30] = 0x55;
  const key = publicKeyOf(core, secret, NETWORKS.simulator.generatorDomain);
  return { address: encodeAddress('simulator', key), rawHex: Buffer.from(key).toString('hex') };
}

/** A ContractSession on the shared VM; the contract id defaults to ab…ab. */
export class ContractSession extends HostSession {
  constructor(d: Dvm, code: string, scid = 'ab'.repeat(32)) {
    super(d, code, scid);
  }
}

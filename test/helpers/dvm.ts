/**
 * Running contracts in tests: the real `dvm` plugin's VM through the same JSON runner as `umbra contract run`,
 * and a `ContractSession` that keeps a contract's store and balances between calls the way the chain would
 * (committed writes applied, deposits credited, payments debited) so that sample contracts can be played through.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Core } from '../../core-native/ts/core.js';
import { loadCore } from '../../core-native/ts/index.js';
import { runContractRequest, type RunResponse, type StoreEntry } from '../../host/cli/contract-runner.js';
import { addressCodec, encodeAddress, type AddressCodec } from '../../host/protocol/address.js';
import { publicKeyOf } from '../../host/protocol/keys.js';
import { NETWORKS } from '../../host/protocol/network.js';
import { DvmContractVm } from '../../plugins/dvm/contract-vm.js';
import { REPO_ROOT } from './cli.js';

export const COIN_HEX = '0'.repeat(64);

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

export interface CallOptions {
  signer?: string;
  coinvalue?: number | bigint;
  assets?: Record<string, number | bigint>;
  args?: { name: string; datatype: 'S' | 'U' | 'H'; value: string | number }[];
  txid?: string;
  blid?: string;
  fee?: number;
}

/** One installed contract with its store and balances, advanced by committed calls only. */
export class ContractSession {
  readonly store = new Map<string, StoreEntry>();
  readonly balances = new Map<string, bigint>();

  constructor(
    private readonly dvm: Dvm,
    readonly code: string,
    readonly scid = 'ab'.repeat(32),
  ) {}

  call(entrypoint: string, options: CallOptions = {}): RunResponse {
    const { signer, coinvalue, assets, args, txid, blid, fee } = options;
    const response = this.dvm.run({
      code: this.code,
      entrypoint,
      args: args ?? [],
      env: {
        scid: this.scid,
        signer,
        txid,
        blid,
        fee,
        coinvalue: coinvalue === undefined ? undefined : Number(coinvalue),
        assets: assets && Object.fromEntries(Object.entries(assets).map(([k, v]) => [k, Number(v)])),
        balances: Object.fromEntries([...this.balances].map(([k, v]) => [k, v.toString()])),
      },
      store: [...this.store.values()],
    });
    if (response.committed) this.apply(response, coinvalue, assets);
    return response;
  }

  private apply(
    response: RunResponse,
    coinvalue: number | bigint | undefined,
    assets: Record<string, number | bigint> | undefined,
  ): void {
    for (const write of response.writes) {
      const id = `${write.ktype}:${write.key}`;
      if (write.deleted) this.store.delete(id);
      else this.store.set(id, write);
    }
    const credit = (asset: string, amount: bigint): void => {
      if (asset !== this.scid) this.balances.set(asset, (this.balances.get(asset) ?? 0n) + amount);
    };
    if (coinvalue) credit(COIN_HEX, BigInt(coinvalue));
    for (const [asset, amount] of Object.entries(assets ?? {})) credit(asset, BigInt(amount));
    for (const t of response.transfers) credit(t.asset, -BigInt(t.amount));
  }

  /** A stored String-keyed value as the runner shows it (text, hex for raw bytes, or a number), or undefined. */
  get(key: string): string | number | undefined {
    return this.store.get(`S:${key}`)?.value;
  }

  balance(asset = COIN_HEX): bigint {
    return this.balances.get(asset) ?? 0n;
  }
}

/**
 * The chain bench/sync.ts syncs: `blocks` blocks on the simulator, mined through the node's own templates, whose blocks
 * register `accounts` accounts between them and, at TRANSFER_POINTS points spread over the chain, take ring-16 and
 * ring-2 transfers and contract transactions — the install of a sample contract (examples/contracts/nameservice.bas)
 * and then calls of its Register, each storing a name — so the state holds balances touched by transfers and contract
 * storage besides registrations. What costs most is made ahead on worker threads: every registration before the first
 * block, and each point's transfers (all referencing the top at that point, from accounts no transfer touched). The keys
 * of the accounts that sent or received a transfer are kept, so that a wallet with a history on the chain can be
 * restored from them (bench/wallet-private.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { mod } from '../../core-native/ts/proof/field.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import { NETWORKS } from '../../protocol/network.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { decodeTransaction, TxType } from '../../protocol/transaction.js';
import { mine, type TestNode } from '../../test/helpers/p2p.js';
import { buildRegistrations } from './registration-builders.js';
import { buildTransfers, type BuildJob } from './transfer-builders.js';

const TRANSFER_POINTS = 20;
/** Per point: transfers of each ring size, and contract calls (ring 2, so that the contract knows the signer). */
const RING_16_TRANSFERS = 6;
const RING_2_TRANSFERS = 6;
const CONTRACT_CALLS = 3;
const CONTRACT = readFileSync(new URL('../../../examples/contracts/nameservice.bas', import.meta.url), 'utf8');

export interface Account {
  /** Hex of the secret key. */
  secretKey: string;
  /** Hex of the compressed public key. */
  key: string;
}

export interface SyncChain {
  registrations: number;
  transfers: number;
  contractTransactions: number;
  /** Registered accounts no transaction touched (each still holds (Y, G)), for later transfers. */
  untouched: Account[];
  /** The sender and the receiver of every plain transfer, in chain order: accounts with history, for wallets. */
  transacting: Account[];
}

/** Mines the chain on `source` (an empty simulator node); returns what its blocks hold. */
export async function buildSyncChain(source: TestNode, blocks: number, accounts: number): Promise<SyncChain> {
  const { txPool } = source.app.container.cradle;
  const domain = NETWORKS.simulator.generatorDomain;
  const started = Date.now();
  const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const secretKeys = Array.from({ length: accounts }, () =>
    toHex(bigintToBytes32BE(mod(bigintFromBytesBE(randomBytes(32))) || 1n)),
  );
  const registrations = await buildRegistrations(domain, 0, secretKeys);
  const registered: Account[] = registrations.map((bytes, i) => {
    const tx = decodeTransaction(bytes);
    if (tx.type !== TxType.Registration) throw new Error('a registration builder made another transaction');
    return { secretKey: secretKeys[i]!, key: toHex(tx.key) };
  });
  console.log(`${accounts} registrations built (${elapsed()})`);

  let untouched = 0;
  /** Accounts registered on the chain so far, for rings: each used once, so that every member still holds (Y, G). */
  const takeAccounts = (count: number, limit: number): Account[] | undefined => {
    if (untouched + count > limit) return undefined;
    untouched += count;
    return registered.slice(untouched - count, untouched);
  };
  const ringJob = (members: Account[], scArgs?: RpcArgument[]): BuildJob => ({
    secretKey: members[0]!.secretKey,
    ring: members.map((account) => account.key),
    senderIndex: 0,
    receiverIndex: 1,
    ...(scArgs ? { scArgs } : {}),
  });
  let scid: string | undefined;
  let installId: string | undefined;
  let names = 0;
  const totals = { registrations: 0, transfers: 0, contractTransactions: 0 };
  const transacting: Account[] = [];

  /** The jobs of one transfer point, from accounts among the first `limit` registered. */
  const pointJobs = (limit: number): { jobs: BuildJob[]; install: boolean } => {
    const jobs: BuildJob[] = [];
    for (const [ring, count] of [
      [16, RING_16_TRANSFERS],
      [2, RING_2_TRANSFERS],
    ] as const)
      for (let i = 0; i < count; i++) {
        const members = takeAccounts(ring, limit);
        if (!members) continue;
        jobs.push(ringJob(members));
        transacting.push(members[0]!, members[1]!);
      }
    const install = installId === undefined;
    const contractJobs = install ? 1 : scid ? CONTRACT_CALLS : 0;
    for (let i = 0; i < contractJobs; i++) {
      const members = takeAccounts(2, limit);
      if (!members) break;
      const args: RpcArgument[] = install
        ? [
            { name: 'SC_ACTION', datatype: 'U', value: 1n },
            { name: 'SC_CODE', datatype: 'S', value: CONTRACT },
          ]
        : [
            { name: 'SC_ACTION', datatype: 'U', value: 0n },
            { name: 'SC_ID', datatype: 'H', value: scid! },
            { name: 'entrypoint', datatype: 'S', value: 'Register' },
            { name: 'name', datatype: 'S', value: `bench-name-${++names}` },
          ];
      jobs.push(ringJob(members, args));
    }
    return { jobs, install };
  };

  const pointEvery = Math.max(1, Math.floor(blocks / TRANSFER_POINTS));
  for (let block = 0; block < blocks; block++) {
    if (block % pointEvery === pointEvery - 1) {
      // The block mined before this point holds the install: calls go to it from now on.
      if (installId !== undefined) scid = installId;
      const { jobs, install } = pointJobs(totals.registrations);
      const top = source.chain.top;
      const reference = { height: top.height.toString(), blid: toHex(top.id), roothash: toHex(top.stateRoot) };
      const txs = await buildTransfers(domain, reference, jobs);
      txs.forEach((hex, i) => {
        const id = txPool.add(fromHex(hex));
        if (jobs[i]!.scArgs) {
          totals.contractTransactions++;
          if (install && i === jobs.length - 1) installId = toHex(id);
        } else totals.transfers++;
      });
    }
    const due = Math.floor(((block + 1) * accounts) / blocks);
    for (; totals.registrations < due; totals.registrations++) txPool.add(registrations[totals.registrations]!);
    await mine(source, 1);
    if (txPool.size > 0) throw new Error(`block ${block + 1} left ${txPool.size} transactions in the pool`);
    if (block % 1000 === 999) console.log(`built ${block + 1} blocks, ${totals.registrations} accounts (${elapsed()})`);
  }
  console.log(
    `source: ${blocks} blocks, ${totals.registrations} registrations, ${totals.transfers} transfers (ring 16 and 2), ` +
      `${totals.contractTransactions} contract transactions (an install and calls that store), built in ${elapsed()}`,
  );
  return { ...totals, untouched: registered.slice(untouched), transacting };
}

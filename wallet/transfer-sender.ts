/**
 * Sends the wallet's transfers (docs/rpc.md § transfer): one payload per transfer item (plus a 0-amount native
 * payload to a random account when no item is in the native coin, because the native payload carries the fee), rings
 * from NODE.GetRandomAddress, ring balances read at the current top (the transaction's reference block), the default
 * fee unless one is given, then NODE.SendRawTransaction. A rejected transaction is an error, never a txid. A contract
 * install or call is first tried on the daemon (contract-trial.ts) and refused when it would fail, unless forced.
 *
 * One transaction at a time: calls run in turn, and while a transaction the history holds as sent is still in the pool
 * a new one is refused before anything is built (it would spend the same balance, and the first would win). A sent transaction is recorded in the history,
 * and `onSent` learns the assets it touched (for the history sync to follow).
 */
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { PAYLOAD_ARGS_BYTES } from '../core-native/ts/payload-cipher.js';
import { sharedSecret } from '../core-native/ts/shared-secret.js';
import { decodeAddress, encodePaymentProof } from '../protocol/address.js';
import { fromHex, toHex } from '../protocol/bytes.js';
import { coinsText, formatCoins } from '../protocol/coin-amount.js';
import { decodeNonceBalance, type NonceBalance } from '../protocol/nonce-balance.js';
import { encodeRpcArguments, type RpcArgument } from '../protocol/rpc-arguments.js';
import { buildTransfer, type BuiltTransfer, type PayloadSpec } from '../protocol/transfer-builder.js';
import { minimumFee } from '../protocol/transfer-checks.js';
import { TxType } from '../protocol/transaction.js';
import { balanceKey, type BalanceWanted, type ChainTop } from './chain-access/chain-access.js';
import { DaemonRpcError, type GasEstimate } from './daemon-client.js';
import { resolveDestination } from './destination.js';
import { requestFee } from './fees.js';
import { payloadItems } from './payload-items.js';
import { arrangeRing, checkRingFits, chooseRing, drawDecoys, type RingChoice } from './ring.js';
import { contractTarget, historyEntry, unmined, type ContractTarget } from './history-entry.js';
import type { TransferHistory } from './transfer-history.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import type { AccountRegistration } from './account-registration.js';
import { tryContract } from './contract-trial.js';
import type { OwnBalances } from './own-balances.js';
import type { WalletContext } from './wallet-context.js';
import { daemonFailure, daemonRefusal, WalletError, WalletErrorCode } from './wallet-error.js';

export interface TransferItem {
  /** Address, integrated address or registered name; empty: a random registered account (for deposits). */
  destination: string;
  amount: bigint;
  /** 64 hex; zeros for the native coin. */
  scid: string;
  burn: bigint;
  payloadRpc: RpcArgument[];
}

export interface TransferRequest {
  transfers: TransferItem[];
  /** A power of two from 2 to 128 (checked by the caller). */
  ringSize: number;
  /** Exact fee; default: the wallet's formula (fees.ts). */
  fees?: bigint;
  /** Contract arguments (SC_ACTION, SC_CODE or SC_ID, entrypoint …): makes it a contract transaction. */
  scRpc?: RpcArgument[];
  /** Send a contract call even when a trial run against the latest state says it would fail (docs/rpc.md § transfer). */
  force?: boolean;
}

interface PlannedPayload {
  item: TransferItem;
  args: RpcArgument[];
  receiver: string;
  ring: string[];
  senderIndex: number;
  receiverIndex: number;
}

/** Integrated-address arguments, overridden by the item's own `payload_rpc` of the same name. */
function mergeArgs(integrated: readonly RpcArgument[], explicit: readonly RpcArgument[]): RpcArgument[] {
  const byName = new Map<string, RpcArgument>();
  for (const arg of [...integrated, ...explicit]) byName.set(arg.name, arg);
  return [...byName.values()];
}

/** What the sender works with besides the wallet's context. */
export interface SenderParts {
  /** Registers the account before its first transaction. */
  registration: Pick<AccountRegistration, 'ensure'>;
  /** Where sent payloads are recorded. */
  history: TransferHistory;
  /** The wallet's own balances (what it can spend). */
  balances: OwnBalances;
  /** Called once a transaction is in the daemon's pool and recorded: the assets sent, installed or called. */
  onSent?: (assets: string[]) => void;
}

/** The assets a transaction touches: those of its payloads, and the contract it installs or calls. */
const touchedAssets = (planned: PlannedPayload[], contract: ContractTarget | undefined): string[] => [
  ...planned.map(({ item }) => item.scid),
  ...(contract ? [contract.scid] : []),
];

export class TransferSender {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly address: string;

  constructor(
    private readonly context: WalletContext,
    private readonly parts: SenderParts,
  ) {
    this.address = context.keys.address;
  }

  /** Builds, sends and records a transaction; its txid once the daemon has accepted it into its pool. */
  send(request: TransferRequest): Promise<string> {
    const run = this.queue.then(() => this.sendNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendNow(request: TransferRequest): Promise<string> {
    try {
      await this.refuseWhilePending();
      if (!request.force) await this.tryContract(request);
      await this.parts.registration.ensure();
      const top = await this.context.access.top();
      const planned = await Promise.all(
        payloadItems(request.transfers).map((item) => this.plan(item, request.ringSize)),
      );
      const balances = await this.ringBalances(planned, top.topoheight);
      for (const { receiver } of planned) {
        if (!balances.has(balanceKey(NATIVE_ASSET, receiver)))
          throw new WalletError(WalletErrorCode.DestinationUnregistered, `destination ${receiver} is not registered`);
      }
      const scData = request.scRpc ? encodeRpcArguments(request.scRpc) : undefined;
      let fee = request.fees ?? requestFee(request);
      let built = this.build(planned, balances, top, fee, scData);
      // The formula stays above the pool's floor in practice; a very large transaction raises the fee to the floor.
      while (request.fees === undefined && fee < minimumFee(built.bytes.length)) {
        fee = minimumFee(built.bytes.length);
        built = this.build(planned, balances, top, fee, scData);
      }
      const txid = await this.context.sendDaemon.sendRawTransaction(built.bytes);
      const contract = request.scRpc && contractTarget(txid, request.scRpc);
      this.record(txid, planned, built, fee, contract);
      this.parts.onSent?.(touchedAssets(planned, contract));
      return txid;
    } catch (error) {
      if (error instanceof DaemonRpcError) throw daemonRefusal(WalletErrorCode.DaemonRefused, error.message, error);
      throw daemonFailure(error);
    }
  }

  /**
   * The ring size for a request (ring.ts): `asked` when the chain can fill it (else RingTooLargeError), otherwise
   * `fallback`, lowered on a young chain to the largest ring it can fill.
   */
  chooseRing(asked: number | undefined, fallback: number): Promise<RingChoice> {
    return chooseRing(this.context.sendDaemon, asked, fallback);
  }

  /** The trial run of a contract request (contract-trial.ts) and its gas; nothing for a plain transfer. */
  async tryContract(request: TransferRequest): Promise<GasEstimate | undefined> {
    if (!request.scRpc) return undefined;
    return tryContract(this.context.sendDaemon, {
      scRpc: request.scRpc,
      transfers: request.transfers,
      // Only a ring of 2 reveals the sender to the contract.
      signer: request.ringSize === 2 ? this.address : undefined,
      fee: request.fees ?? requestFee(request),
    });
  }

  /**
   * Refuses a transaction while one the wallet sent earlier (its history says which, whichever process sent it) is
   * still in the daemon's pool: it would spend the same balance, and the first would win.
   */
  async refuseWhilePending(): Promise<void> {
    const [pending] = await this.parts.history.confirm(this.context.sendDaemon);
    if (pending)
      throw new WalletError(
        WalletErrorCode.PreviousTransactionPending,
        `a previous transaction ${pending} is not mined yet; send again once it is in a block`,
      );
  }

  private async plan(item: TransferItem, ringSize: number): Promise<PlannedPayload> {
    const self = this.address;
    const destination = item.destination === '' ? undefined : await resolveDestination(this.context, item.destination);
    if (destination?.address === self)
      throw new WalletError(WalletErrorCode.SendToSelf, 'sending to self is not supported');
    const args = mergeArgs(destination?.args ?? [], item.payloadRpc);
    const packed = encodeRpcArguments(args).length;
    if (packed > PAYLOAD_ARGS_BYTES)
      throw new WalletError(
        WalletErrorCode.PayloadTooLarge,
        `payload arguments pack into ${packed} bytes, the limit is ${PAYLOAD_ARGS_BYTES}`,
      );
    await checkRingFits(this.context.sendDaemon, ringSize);
    const decoys = await drawDecoys(
      this.context.sendDaemon,
      item.scid,
      destination ? [self, destination.address] : [self],
      ringSize - (destination ? 2 : 1),
      ringSize,
    );
    const receiver = destination?.address ?? decoys.pop()!;
    return { item, args, receiver, ...arrangeRing(self, receiver, decoys) };
  }

  /**
   * Every ring member's encrypted balance (native, and the payload's asset) at the reference topoheight, read as the
   * wallet's mode reads them (all members alike, in one batch: the reads say no more than the transaction will).
   */
  private async ringBalances(
    planned: PlannedPayload[],
    topoheight: number,
  ): Promise<Map<string, { data: string; balance: NonceBalance }>> {
    const wanted = new Map<string, BalanceWanted>();
    for (const { item, ring } of planned)
      for (const address of ring)
        for (const scid of new Set([NATIVE_ASSET, item.scid])) wanted.set(balanceKey(scid, address), { scid, address });
    // No entry: unregistered (native) or never touched by the asset (a token), which the builder handles.
    const read = await this.context.access.balancesOf([...wanted.values()], topoheight);
    return new Map([...read].map(([key, data]) => [key, { data, balance: decodeNonceBalance(fromHex(data)) }]));
  }

  private build(
    planned: PlannedPayload[],
    balances: Map<string, { data: string; balance: NonceBalance }>,
    top: ChainTop,
    fee: bigint,
    scData: Uint8Array | undefined,
  ): BuiltTransfer {
    const { core, generators, keys } = this.context;
    const own = (scid: string): bigint => {
      const record = balances.get(balanceKey(scid, keys.address));
      return record ? this.parts.balances.amount(scid, record.data) : 0n;
    };
    const needed = new Map<string, bigint>();
    const feeAt = planned.findIndex((p) => p.item.scid === NATIVE_ASSET);
    planned.forEach(({ item }, i) =>
      needed.set(item.scid, (needed.get(item.scid) ?? 0n) + item.amount + item.burn + (i === feeAt ? fee : 0n)),
    );
    for (const [scid, need] of needed) {
      const have = own(scid);
      const shown = scid === NATIVE_ASSET ? coinsText : formatCoins;
      if (need > have)
        throw new WalletError(
          WalletErrorCode.InsufficientBalance,
          `insufficient funds${scid === NATIVE_ASSET ? '' : ` of asset ${scid}`}: need ${shown(need)} (amounts, burns and fee), have ${shown(have)}`,
        );
    }
    const keyOf = new Map<string, string>();
    const payloads: PayloadSpec[] = planned.map(({ item, args, ring, senderIndex, receiverIndex }, i) => ({
      scid: fromHex(item.scid, 32),
      ring: ring.map((address) => {
        const key = decodeAddress(address).publicKey;
        keyOf.set(toHex(key), address);
        return key;
      }),
      senderIndex,
      receiverIndex,
      amount: item.amount,
      burn: item.burn,
      fee: i === feeAt ? fee : 0n,
      args: encodeRpcArguments(args),
    }));
    return buildTransfer(core, generators, {
      type: scData ? TxType.SmartContract : TxType.Normal,
      secretKey: keys.secretKey,
      reference: {
        height: BigInt(top.height),
        blid: fromHex(top.hash, 32),
        roothash: fromHex(top.stateRoot, 32),
      },
      payloads,
      scData,
      balanceAt: (asset, key) => balances.get(balanceKey(toHex(asset), keyOf.get(toHex(key)) ?? ''))?.balance,
      senderBalance: (asset) => own(toHex(asset)),
    });
  }

  /** One outgoing entry per payload, in the history of the payload's asset. */
  private record(
    txid: string,
    planned: PlannedPayload[],
    built: BuiltTransfer,
    fee: bigint,
    contract: ContractTarget | undefined,
  ): void {
    const { core } = this.context;
    const feeAt = planned.findIndex((p) => p.item.scid === NATIVE_ASSET);
    planned.forEach(({ item, args, receiver, senderIndex }, pos) => {
      const receiverPoint = core.g1Decompress(decodeAddress(receiver).publicKey);
      const r = bigintToBytes32BE(built.blindings[pos]!);
      const padded = new Uint8Array(PAYLOAD_ARGS_BYTES);
      padded.set(encodeRpcArguments(args));
      this.parts.history.add(
        item.scid,
        historyEntry({
          place: unmined(Date.now()),
          txid,
          pos,
          kind: 'outgoing',
          destination: receiver,
          sender: this.address,
          amount: item.amount + item.burn,
          burn: item.burn,
          fees: pos === feeAt ? fee : 0n,
          proof: encodePaymentProof(
            core.g1Compress(core.g1MulSecret(receiverPoint, r)),
            sharedSecret(core, r, receiverPoint),
            item.amount,
          ),
          payload: { senderIndex, bytes: padded, args },
          contract,
        }),
      );
    });
  }
}

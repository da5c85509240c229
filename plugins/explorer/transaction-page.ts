/**
 * The transaction page (`/explorer/tx/<txid>`): type, size, fee, proof size, asset payloads with their rings as
 * addresses, the block it is valid in (or the pool), and for a contract transaction its arguments and outcome; under a
 * transfer, the form that checks a payment proof against it (`?proof=…`).
 */
import { fromHex } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { DaemonQuery } from './daemon-queries.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import {
  addressLink,
  amount,
  assetAmount,
  assetLabel,
  blockLink,
  contractLink,
  facts,
  page,
  table,
  wholeId,
} from './layout.js';
import { paymentProofForm, proofCheck, type ProofCheck } from './payment-proof-form.js';
import { summariseTransaction, type TransactionSummary } from './transaction-summary.js';

export interface TransactionView extends TransactionSummary {
  inPool: boolean;
  /** The main-chain block holding it, when mined. */
  block: { hash: string; height: number } | null;
  /** Ring members of each payload, as addresses. */
  rings: string[][];
  /** The sender, when a native ring of 2 reveals it. */
  signer: string;
  outcome: ContractCallOutcome | null;
  /** The payment proof the page was asked to check (`?proof=…`), with the daemon's verdict. */
  proofCheck: ProofCheck | null;
}

const HASH = /^[0-9a-fA-F]{64}$/;

export async function transactionView(
  txid: string,
  sources: { query: DaemonQuery; addressOf(key: Uint8Array): string },
  proof: string | null = null,
): Promise<TransactionView> {
  const { query } = sources;
  if (!HASH.test(txid)) throw notFound(`'${txid}' is not a transaction id (64 hex digits)`);
  const record = (await query('NODE.GetTransaction', { txs_hashes: [txid] })).txs[0]!;
  if (record.as_hex === '') throw notFound(`no transaction ${txid} on this chain or in the pool`);
  const summary = summariseTransaction(fromHex(txid, 32), fromHex(record.as_hex), sources.addressOf);
  return {
    ...summary,
    inPool: record.in_pool,
    block: record.valid_block ? { hash: record.valid_block, height: record.block_height } : null,
    rings: record.ring ?? [],
    signer: record.signer,
    outcome: record.sc_outcome ?? null,
    proofCheck: summary.payloads.length > 0 ? await proofCheck(query, txid, proof) : null,
  };
}

function describeOutcome(outcome: ContractCallOutcome): string {
  if (outcome.status === 'committed') return `committed (gas ${outcome.gascompute})`;
  if (outcome.status === 'returned') return `returned ${outcome.code}: changes discarded (gas ${outcome.gascompute})`;
  const line = outcome.line === undefined ? '' : ` at line ${outcome.line}`;
  return `failed${line}: ${outcome.message ?? 'no reason given'}; changes discarded (gas ${outcome.gascompute})`;
}

export function renderTransaction(view: TransactionView): string {
  const contract = view.contract;
  const main = html`<h1>Transaction</h1>
${facts([
  ['Txid', wholeId(view.txid, 'txid')],
  ['Type', view.type],
  [
    'Status',
    view.inPool
      ? 'waiting in the pool'
      : view.block
        ? html`valid in block ${blockLink(view.block.hash, view.block.height)}`
        : 'not in a main-chain block',
  ],
  ['Size (bytes)', view.size],
  ['Fee', amount(view.fee)],
  ['Proof size (bytes)', view.proofBytes],
  ...(view.signer ? [['Sender (ring of 2)', addressLink(view.signer)] as [string, unknown]] : []),
  ...(view.account ? [['Registers', addressLink(view.account)] as [string, unknown]] : []),
])}
${
  contract &&
  html`<h2>Contract ${contract.kind}</h2>
${facts([
  ['Contract', contractLink(contract.scid)],
  ...(contract.entrypoint !== undefined ? [['Function', contract.entrypoint] as [string, unknown]] : []),
  [
    'Outcome',
    view.outcome
      ? html`<span class="outcome-${view.outcome.status}">${describeOutcome(view.outcome)}</span>`
      : view.inPool
        ? 'not executed yet'
        : '—',
  ],
])}
${table(
  'arguments',
  ['Argument', 'Type', 'Value'],
  contract.args.map((arg) => [arg.name, arg.datatype, html`<span class="value">${arg.value}</span>`]),
)}`
}
${view.payloads.map(
  (payload, i) => html`<h2>Payload ${i + 1}</h2>
${facts([
  ['Asset', assetLabel(payload.scid)],
  ['Burn', assetAmount(payload.burn, payload.scid)],
  ['Ring size', payload.ringSize],
  ['Proof size (bytes)', payload.proofBytes],
])}
<details${view.rings[i] && view.rings[i]!.length <= 16 ? ' open' : ''}><summary>Ring members</summary><ol class="ring">${(view.rings[i] ?? []).map((member) => html`<li>${addressLink(member)}</li>`)}</ol></details>`,
)}
${view.payloads.length > 0 && paymentProofForm(view.txid, view.proofCheck)}`;
  return page({ title: `Transaction ${view.txid.slice(0, 16)}…` }, main);
}

/**
 * The address page (`/explorer/address/<address>`): what the chain shows anyone about an account, nothing more —
 * whether and since when it is registered, the names it owns, its encrypted native balance record, the rings of the
 * recent chain it is a member of, and the contract calls it signed with a ring of 2 (which reveals the signer).
 * Amounts are encrypted, and a ring member is not known to have sent or received anything.
 */
import { toHex } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { AddressError } from '../../protocol/address.js';
import type { ChainService } from '../../host/services/chain.js';
import { outcomeCell } from './call-outcome.js';
import type { DaemonQuery } from './daemon-queries.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import { blockLink, contractLink, facts, id, page, table, txLink, wholeId } from './layout.js';
import type { NamesOf } from './name-owners.js';
import { ACTIVITY_BLOCKS, ACTIVITY_LIMIT, type RecentTransactions } from './recent-transactions.js';
import type { ContractAction } from './transaction-summary.js';

export interface RingAppearance {
  txid: string;
  height: number;
  block: string;
  type: string;
  /** The size of each ring of the transaction that holds the account. */
  ringSizes: number[];
  /** Who a native ring of 2 reveals as the sender: this account, the other member, or no one (a larger ring). */
  sender: 'this account' | 'the other member' | null;
}

export interface SignedCall {
  txid: string;
  height: number;
  block: string;
  action: ContractAction;
  outcome: ContractCallOutcome | null;
}

export interface AddressView {
  address: string;
  registered: boolean;
  /** Topoheight of the block that registered it. */
  registration?: number;
  /** Names the name service gives it. */
  names?: string[];
  /** The encrypted balance record (nonce and ciphertext), hex, as NODE.GetEncryptedBalance returns it. */
  encryptedBalance?: string;
  /** The topoheight the record was read at (the top). */
  topoheight?: number;
  /** Transactions of the last ACTIVITY_BLOCKS blocks with the account in a ring, newest first. */
  rings?: RingAppearance[];
  /** Contract installs and calls of the same span it signed with a native ring of 2, newest first. */
  signedCalls?: SignedCall[];
}

export interface AddressSources {
  chain: ChainService;
  query: DaemonQuery;
  keyOf(address: string): Uint8Array;
  names: NamesOf;
  recent: RecentTransactions;
}

export async function addressView(address: string, sources: AddressSources): Promise<AddressView> {
  let key: Uint8Array;
  try {
    key = sources.keyOf(address);
  } catch (error) {
    if (error instanceof AddressError)
      throw notFound(`'${address}' is not an address of this network: ${error.message}`);
    throw error;
  }
  if (!sources.chain.isRegistered(key)) return { address, registered: false };
  const member = toHex(key);
  const record = await sources.query('NODE.GetEncryptedBalance', { address });
  const rings = sources.recent((tx) => tx.rings.some((ring) => ring.members.includes(member)));
  const signed = sources.recent((tx) => tx.signer === member && tx.contract !== undefined);
  const outcomes =
    signed.length === 0
      ? []
      : (await sources.query('NODE.GetTransaction', { txs_hashes: signed.map((tx) => tx.txid) })).txs;
  return {
    address,
    registered: true,
    registration: record.registration,
    names: await sources.names(member),
    encryptedBalance: record.data,
    topoheight: record.topoheight,
    rings: rings.map((tx) => ({
      txid: tx.txid,
      height: tx.height,
      block: tx.block,
      type: tx.type,
      ringSizes: tx.rings.filter((ring) => ring.members.includes(member)).map((ring) => ring.members.length),
      sender: tx.signer === undefined ? null : tx.signer === member ? 'this account' : 'the other member',
    })),
    signedCalls: signed.map((tx, i) => ({
      txid: tx.txid,
      height: tx.height,
      block: tx.block,
      action: tx.contract!,
      outcome: outcomes[i]?.sc_outcome ?? null,
    })),
  };
}

const limitNote = (count: number): string =>
  count < ACTIVITY_LIMIT ? '' : ` Only the newest ${ACTIVITY_LIMIT} are listed.`;

function ringsSection(rings: RingAppearance[]) {
  return html`<h2>Rings it is in, over the last ${ACTIVITY_BLOCKS} blocks (${rings.length})</h2>
${
  rings.length === 0
    ? html`<p>None in that span.</p>`
    : table(
        'rings',
        ['Block', 'Txid', 'Type', 'Ring size', 'Revealed sender'],
        rings.map((ring) => [
          blockLink(ring.block, ring.height),
          txLink(ring.txid),
          ring.type,
          ring.ringSizes.join(', '),
          ring.sender ?? 'hidden',
        ]),
      )
}
<p class="note">Being in a ring does not mean sending or receiving: rings are filled with other accounts to hide who
did. Found by reading the last ${ACTIVITY_BLOCKS} blocks, each decoded once and remembered.${limitNote(rings.length)}</p>`;
}

function signedCallsSection(calls: SignedCall[]) {
  return html`<h2>Contract calls it signed with a ring of 2, over the last ${ACTIVITY_BLOCKS} blocks (${calls.length})</h2>
${
  calls.length === 0
    ? html`<p>None in that span.</p>`
    : table(
        'signed-calls',
        ['Block', 'Txid', 'Contract', 'Action', 'Outcome'],
        calls.map((call) => [
          blockLink(call.block, call.height),
          txLink(call.txid),
          contractLink(call.action.scid),
          call.action.kind === 'install' ? 'install' : `call ${call.action.entrypoint ?? ''}`,
          outcomeCell(call.outcome),
        ]),
      )
}
<p class="note">A ring of 2 shows which member signed: the contract saw this account as SIGNER().${limitNote(calls.length)}</p>`;
}

export function renderAddress(view: AddressView): string {
  const main = html`<h1>Address</h1>
${facts([
  ['Address', wholeId(view.address, 'address')],
  [
    'Registered',
    view.registered
      ? html`yes, in block ${blockLink(view.registration!, view.registration!)}`
      : 'no: this account is not registered on this chain, so it cannot receive yet',
  ],
  ...(view.registered
    ? ([
        ['Names', view.names!.length === 0 ? 'none' : html`<span id="names">${view.names!.join(', ')}</span>`],
        ['Encrypted balance (native)', id(view.encryptedBalance!, 'encrypted balance')],
        ['Read at topoheight', view.topoheight],
      ] as [string, unknown][])
    : []),
])}
<p class="note">Balances are encrypted on chain: only the account's wallet can read the amount.</p>
${view.registered && html`${ringsSection(view.rings!)}${signedCallsSection(view.signedCalls!)}`}`;
  return page({ title: 'Address' }, main);
}

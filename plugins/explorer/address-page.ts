/**
 * The address page (`/explorer/address/<address>`): whether the account is registered, since when, and its encrypted
 * native balance record — what the chain reveals, nothing more (amounts are encrypted; history is not linkable).
 */
import { AddressError } from '../../protocol/address.js';
import type { ChainService } from '../../host/services/chain.js';
import type { DaemonQuery } from './daemon-queries.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import { blockLink, facts, hash, page } from './layout.js';

export interface AddressView {
  address: string;
  registered: boolean;
  /** Topoheight of the block that registered it. */
  registration?: number;
  /** The encrypted balance record (nonce and ciphertext), hex, as NODE.GetEncryptedBalance returns it. */
  encryptedBalance?: string;
  /** The topoheight the record was read at (the top). */
  topoheight?: number;
}

export async function addressView(
  address: string,
  sources: { chain: ChainService; query: DaemonQuery; keyOf(address: string): Uint8Array },
): Promise<AddressView> {
  let key: Uint8Array;
  try {
    key = sources.keyOf(address);
  } catch (error) {
    if (error instanceof AddressError)
      throw notFound(`'${address}' is not an address of this network: ${error.message}`);
    throw error;
  }
  if (!sources.chain.isRegistered(key)) return { address, registered: false };
  const record = await sources.query('NODE.GetEncryptedBalance', { address });
  return {
    address,
    registered: true,
    registration: record.registration,
    encryptedBalance: record.data,
    topoheight: record.topoheight,
  };
}

export function renderAddress(view: AddressView): string {
  const main = html`<h1>Address</h1>
${facts([
  ['Address', hash(view.address)],
  [
    'Registered',
    view.registered
      ? html`yes, in block ${blockLink(view.registration!, view.registration!)}`
      : 'no: this account is not registered on this chain, so it cannot receive yet',
  ],
  ...(view.registered
    ? ([
        ['Encrypted balance (native)', html`<span class="hash">${view.encryptedBalance}</span>`],
        ['Read at topoheight', view.topoheight],
      ] as [string, unknown][])
    : []),
])}
<p class="note">Balances are encrypted on chain: only the account's wallet can read the amount.</p>`;
  return page({ title: 'Address' }, main);
}

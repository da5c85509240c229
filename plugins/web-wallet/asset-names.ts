/**
 * What the page calls an asset: the native coin UMB; a token by the label the user gave it, else by the symbol or
 * name its contract stores (its String variables `symbol` and `name`, read as the wallet's mode reads — proven in the
 * private mode — once per SCID), else by its shortened SCID. A contract cannot pass its token off as the native coin:
 * a stored name of UMB is not used.
 */
import { COIN_SYMBOL } from '../../protocol/coin-amount.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { AssetName } from './api-types.js';
import { keepSettings, readKeptSettings } from './kept-settings.js';
import { WebWalletError, WebWalletErrorCode, isScid } from './web-wallet-error.js';

/** The longest name shown or label kept. */
export const MAX_ASSET_NAME = 32;

/** The contract variables a token's name is read from, the first one set winning. */
const NAME_VARIABLES = ['symbol', 'name'];

export const shortScid = (scid: string): string => `${scid.slice(0, 8)}…${scid.slice(-4)}`;

/** A stored name fit to show: printable, trimmed, at most MAX_ASSET_NAME characters; undefined otherwise. */
function shownName(stored: string | undefined): string | undefined {
  const name = stored?.replace(/\p{C}/gu, '').trim().slice(0, MAX_ASSET_NAME);
  return name && name.toUpperCase() !== COIN_SYMBOL ? name : undefined;
}

export class AssetNames {
  /** Names read from contracts, by SCID (undefined: the contract stores none); a failed read is tried again. */
  private readonly read = new Map<string, Promise<string | undefined>>();

  constructor(private readonly wallet: WalletService) {}

  async nameOf(scid: string): Promise<AssetName> {
    if (scid === NATIVE_ASSET) return { name: COIN_SYMBOL, source: 'native' };
    const label = readKeptSettings(this.wallet.file?.contents).labels[scid];
    if (label) return { name: label, source: 'label' };
    const stored = await this.contractName(scid).catch(() => undefined);
    return stored ? { name: stored, source: 'contract' } : { name: shortScid(scid), source: 'scid' };
  }

  /** Gives the token `scid` the user's own label (an empty one removes it), kept in the wallet file. */
  label(scid: string, label: string): void {
    if (!isScid(scid) || scid === NATIVE_ASSET)
      throw new WebWalletError(WebWalletErrorCode.BadRequest, "a token's SCID is 64 lowercase hex digits, not zeros");
    const name = label.trim();
    if (name.length > MAX_ASSET_NAME || /\p{C}/u.test(name))
      throw new WebWalletError(
        WebWalletErrorCode.BadRequest,
        `a label is at most ${MAX_ASSET_NAME} printable characters`,
      );
    if (name.toUpperCase() === COIN_SYMBOL)
      throw new WebWalletError(WebWalletErrorCode.BadRequest, `${COIN_SYMBOL} names the native coin only`);
    if (!this.wallet.file) {
      if (name === '') return;
      throw new WebWalletError(WebWalletErrorCode.BadRequest, 'this wallet has no file to keep labels in');
    }
    const { labels } = readKeptSettings(this.wallet.file.contents);
    const { [scid]: _old, ...others } = labels;
    keepSettings(this.wallet.file, { labels: name === '' ? others : { ...others, [scid]: name } });
  }

  private contractName(scid: string): Promise<string | undefined> {
    let name = this.read.get(scid);
    if (!name) {
      name = this.readName(scid);
      this.read.set(scid, name);
      name.catch(() => this.read.delete(scid));
    }
    return name;
  }

  private async readName(scid: string): Promise<string | undefined> {
    for (const variable of NAME_VARIABLES) {
      const name = shownName(await this.wallet.contractText(scid, variable));
      if (name) return name;
    }
    return undefined;
  }
}

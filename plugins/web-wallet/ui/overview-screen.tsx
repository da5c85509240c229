/**
 * The overview: the balance of each asset the wallet holds or follows (the native coin first, tokens by name where
 * known; a token to follow and a label of one's own to give it), how far the history is synced, and where.
 */
import { useState } from 'preact/hooks';
import type { AssetBalance, AssetName, Overview } from '../api-types.js';
import { post } from './api.js';
import { AssetLabel, Failure, Id } from './parts.js';
import { useAttempt } from './use-attempt.js';
import { useData } from './use-data.js';

/** The privacy mode in words: what the daemon learns, and how far the wallet has checked the chain itself. */
function privacyText({ mode, privacySet, verifiedHeight }: Overview['privacy']): string {
  const verified = verifiedHeight === null ? '' : `; headers verified to block ${verifiedHeight}`;
  if (mode === 'private') return `private: read among at least ${privacySet} accounts, every value proven${verified}`;
  if (mode === 'trusted') return `trusted daemon: asked by address, every value proven${verified}`;
  return 'fast: the daemon is believed';
}

/**
 * A token to follow by its SCID (one received in a private-mode wallet shows once followed) and a label of the user's
 * own for it, kept in the wallet file (an empty label goes back to the token's own name).
 */
function TokenForm({ tokens }: { tokens: AssetBalance[] }) {
  const [scid, setScid] = useState('');
  const [label, setLabel] = useState('');
  const { error, busy, attempt } = useAttempt();
  const save = (event: Event): Promise<void> => {
    event.preventDefault();
    return attempt(async () => {
      await post<AssetName>('assets/token', { scid, label });
      setScid('');
      setLabel('');
    });
  };
  return (
    <details class="tokens">
      <summary>Add or label a token</summary>
      <form class="asset-token" onSubmit={save}>
        <label for="token-scid">Token SCID</label>
        <input
          id="token-scid"
          list="token-scids"
          value={scid}
          onInput={(e) => setScid(e.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
          required
        />
        <datalist id="token-scids">
          {tokens.map((token) => (
            <option key={token.scid} value={token.scid}>
              {token.name}
            </option>
          ))}
        </datalist>
        <label for="token-label">Your label (empty: the token's own name)</label>
        <input id="token-label" value={label} maxLength={32} onInput={(e) => setLabel(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Save
        </button>
        {error && <Failure message={error} />}
      </form>
    </details>
  );
}

export function OverviewScreen() {
  const { value, error } = useData<Overview>('overview', ['wallet']);
  if (!value) return error ? <Failure message={error} /> : <p class="loading">Reading the balances…</p>;
  const progress = Math.min(value.synced, value.topoheight);
  return (
    <>
      <section aria-labelledby="balances-title">
        <h3 id="balances-title">Balances</h3>
        {value.balances.length === 0 ? (
          <p>The account is not registered on chain yet: it registers in the background.</p>
        ) : (
          <ul class="balances">
            {value.balances.map((balance) => (
              <li key={balance.scid} class="balance" data-scid={balance.scid}>
                <AssetLabel asset={balance} />
                <span class="amount" title={`${balance.atomic} atomic units`}>
                  {balance.text}
                </span>
              </li>
            ))}
          </ul>
        )}
        {value.balances.length > 0 && <TokenForm tokens={value.balances.filter((balance) => !balance.native)} />}
      </section>
      <section aria-labelledby="sync-title">
        <h3 id="sync-title">Sync</h3>
        <label for="sync-progress">
          {value.caughtUp ? 'Synced' : 'Syncing'} to block {value.synced} of {value.topoheight}
        </label>
        <progress id="sync-progress" max={Math.max(value.topoheight, 1)} value={progress} />
      </section>
      <dl class="facts">
        <dt>Address</dt>
        <dd>
          <Id value={value.address} copy />
        </dd>
        <dt>Network</dt>
        <dd>{value.network}</dd>
        <dt>Daemon</dt>
        <dd>{value.daemon}</dd>
        <dt>Privacy</dt>
        <dd class="privacy-mode">{privacyText(value.privacy)}</dd>
        {value.privacy.sendDaemon !== value.daemon && (
          <>
            <dt>Sends through</dt>
            <dd>{value.privacy.sendDaemon}</dd>
          </>
        )}
      </dl>
    </>
  );
}

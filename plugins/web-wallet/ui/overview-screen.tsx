/** The overview: the balance of each asset the wallet holds or follows, how far the history is synced, and where. */
import type { Overview } from '../api-types.js';
import { Failure, Id } from './parts.js';
import { useData } from './use-data.js';

/** The privacy mode in words: what the daemon learns, and how far the wallet has checked the chain itself. */
function privacyText({ mode, privacySet, verifiedHeight }: Overview['privacy']): string {
  const verified = verifiedHeight === null ? '' : `; headers verified to block ${verifiedHeight}`;
  if (mode === 'private') return `private: read among at least ${privacySet} accounts, every value proven${verified}`;
  if (mode === 'trusted') return `trusted daemon: asked by address, every value proven${verified}`;
  return 'fast: the daemon is believed';
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
                <span class="asset">{balance.native ? 'UMB' : <Id value={balance.scid} />}</span>
                <span class="amount" title={`${balance.atomic} atomic units`}>
                  {balance.text}
                </span>
              </li>
            ))}
          </ul>
        )}
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

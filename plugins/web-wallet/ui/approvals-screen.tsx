/**
 * What connected web apps ask for: each pending request with what approving does, its details and, for a contract
 * call, its trial run, to approve or deny; and the origins let in, each revocable. Pushed live by the wallet process.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Approvals } from '../api-types.js';
import type { DappRequest } from '../dapp/approvals.js';
import { failure, post } from './api.js';
import { Failure } from './parts.js';
import { useAttempt } from './use-attempt.js';
import { useData } from './use-data.js';

function Request({ request }: { request: DappRequest }) {
  const { error, busy, attempt } = useAttempt();
  const answer = (verb: 'approve' | 'deny'): Promise<void> =>
    attempt(async () => void (await post(`approvals/${verb}`, { id: request.id })));
  return (
    <li class="request" data-id={request.id} data-kind={request.kind}>
      <p class="summary">
        <strong>{request.name}</strong> ({request.origin}) asks: {request.summary}
      </p>
      <dl class="facts">
        {Object.entries(request.details).map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>
              <code class="hash">{value}</code>
            </dd>
          </Fragment>
        ))}
      </dl>
      {request.trial && (
        <p class={`trial ${request.trial.ok ? 'ok' : 'error'}`}>
          Trial run: {request.trial.ok ? 'would commit' : 'would fail'} — {request.trial.message}
          {request.trial.gas && ` (gas ${request.trial.gas})`}
        </p>
      )}
      <p class="hint">Expires at {new Date(request.expiresAt).toLocaleTimeString()}</p>
      <div class="actions">
        <button type="button" class="secondary" disabled={busy} onClick={() => answer('deny')}>
          Deny
        </button>
        <button type="button" disabled={busy} onClick={() => answer('approve')}>
          Approve
        </button>
      </div>
      {error && <Failure message={error} />}
    </li>
  );
}

export function ApprovalsScreen() {
  const { value, error } = useData<Approvals>('approvals', ['approvals']);
  const [revokeError, setRevokeError] = useState('');
  if (!value) return error ? <Failure message={error} /> : <p class="loading">Reading the requests…</p>;
  if (!value.available) return <p>No web apps can connect to this wallet.</p>;
  const revoke = (origin: string): void =>
    void post('approvals/revoke', { origin }).catch((reason: unknown) => setRevokeError(failure(reason)));
  return (
    <>
      <section aria-labelledby="pending-title">
        <h3 id="pending-title">Waiting for you</h3>
        {value.pending.length === 0 ? (
          <p>No requests.</p>
        ) : (
          <ul class="requests">
            {value.pending.map((request) => (
              <Request key={request.id} request={request} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="permissions-title">
        <h3 id="permissions-title">Connected apps</h3>
        {value.permissions.length === 0 ? (
          <p>None.</p>
        ) : (
          <ul class="permissions">
            {value.permissions.map((permission) => (
              <li key={permission.origin} data-origin={permission.origin}>
                <span>
                  <strong>{permission.name}</strong> {permission.origin}, since{' '}
                  {new Date(permission.grantedAt).toLocaleString()}
                </span>
                <button type="button" class="secondary" onClick={() => revoke(permission.origin)}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
        {revokeError && <Failure message={revokeError} />}
      </section>
    </>
  );
}

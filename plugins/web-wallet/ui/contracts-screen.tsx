/**
 * Contracts: a SCID's entry points and their typed parameters, read from its code; a call's trial run (would it
 * commit, its gas and fee) before a call can be confirmed — a call whose trial fails is refused before paying — and
 * a contract installed from a file.
 */
import { useState } from 'preact/hooks';
import type { ContractInfo, Job, Trial } from '../api-types.js';
import { post } from './api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { JobSteps } from './job-steps.js';
import { Failure } from './parts.js';
import { useAttempt } from './use-attempt.js';

function CallForm({ info, started }: { info: ContractInfo; started: (job: Job) => void }) {
  const [entrypoint, setEntrypoint] = useState(info.entryPoints[0]?.name ?? '');
  const [args, setArgs] = useState<Record<string, string>>({});
  const [deposit, setDeposit] = useState('');
  const [trial, setTrial] = useState<Trial>();
  const [confirming, setConfirming] = useState(false);
  const { error, attempt } = useAttempt();
  const entry = info.entryPoints.find((fn) => fn.name === entrypoint);
  const request = { scid: info.scid, entrypoint, args, deposit };
  const edited = (change: () => void): void => {
    change();
    setTrial(undefined);
  };
  const tryCall = (event: Event): Promise<void> => {
    event.preventDefault();
    return attempt(async () => setTrial(await post<Trial>('contract/trial', request)));
  };
  const call = (): Promise<void> =>
    attempt(async () => {
      setConfirming(false);
      started(await post<Job>('contract/call', request));
    });
  return (
    <form onSubmit={tryCall} class="call" aria-label="Call an entry point">
      <label for="call-entrypoint">Entry point</label>
      <select
        id="call-entrypoint"
        value={entrypoint}
        onChange={(e) => edited(() => setEntrypoint(e.currentTarget.value))}
      >
        {info.entryPoints.map((fn) => (
          <option key={fn.name} value={fn.name}>
            {fn.name}
          </option>
        ))}
      </select>
      {entry?.params.map((param) => (
        <div key={param.name} class="field">
          <label for={`param-${param.name}`}>
            {param.name} ({param.type})
          </label>
          <input
            id={`param-${param.name}`}
            inputMode={param.type === 'Uint64' ? 'numeric' : 'text'}
            value={args[param.name] ?? ''}
            onInput={(e) => edited(() => setArgs({ ...args, [param.name]: e.currentTarget.value }))}
          />
        </div>
      ))}
      <label for="call-deposit">Deposit (UMB, optional)</label>
      <input
        id="call-deposit"
        inputMode="decimal"
        value={deposit}
        onInput={(e) => edited(() => setDeposit(e.currentTarget.value))}
      />
      <div class="actions">
        <button type="submit" class="secondary">
          Try it
        </button>
        <button type="button" disabled={!trial?.ok} onClick={() => setConfirming(true)}>
          Call
        </button>
      </div>
      {trial && (
        <p class={`trial ${trial.ok ? 'ok' : 'error'}`} role="status">
          {trial.ok ? 'Would commit' : 'Refused before paying: '}
          {trial.ok ? `: gas ${trial.gas ?? 'not reported'}, fee ${trial.feeText}` : trial.message}
        </p>
      )}
      {error && <Failure message={error} />}
      {confirming && trial && (
        <ConfirmDialog
          title={`Call ${entrypoint}?`}
          confirm="Call"
          onConfirm={call}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Fee {trial.feeText}
            {deposit.trim() && `, deposit ${deposit} UMB`}; ring 2, so the contract sees your address as its signer.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}

function InstallForm({ started }: { started: (job: Job) => void }) {
  const { error, attempt } = useAttempt();
  const install = async (event: Event): Promise<void> => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    await attempt(async () => started(await post<Job>('contract/install', { code: await file.text() })));
  };
  return (
    <section aria-labelledby="install-title">
      <h3 id="install-title">Install a contract</h3>
      <label for="install-file">Contract source file (.bas); its initializer is tried before anything is sent</label>
      <input id="install-file" type="file" accept=".bas,text/plain" onChange={install} />
      {error && <Failure message={error} />}
    </section>
  );
}

export function ContractsScreen() {
  const [scid, setScid] = useState('');
  const [info, setInfo] = useState<ContractInfo>();
  const { error, attempt } = useAttempt();
  const [jobId, setJobId] = useState('');
  const read = async (event: Event): Promise<void> => {
    event.preventDefault();
    setInfo(undefined);
    await attempt(async () => setInfo(await post<ContractInfo>('contract', { scid })));
  };
  return (
    <>
      <form onSubmit={read} class="contract-lookup">
        <label for="contract-scid">Contract (SCID)</label>
        <div class="with-button">
          <input
            id="contract-scid"
            value={scid}
            onInput={(e) => setScid(e.currentTarget.value.trim())}
            spellcheck={false}
            required
          />
          <button type="submit">Read</button>
        </div>
        {error && <Failure message={error} />}
      </form>
      {info && <CallForm key={info.scid} info={info} started={(job) => setJobId(job.id)} />}
      <InstallForm started={(job) => setJobId(job.id)} />
      {jobId && <JobSteps id={jobId} />}
    </>
  );
}

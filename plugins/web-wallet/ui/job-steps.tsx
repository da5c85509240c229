/** A sent transaction's steps, live: building the proof and sending, sent, in block N, and a contract's outcome. */
import type { Job } from '../api-types.js';
import { Failure, Id } from './parts.js';
import { useData } from './use-data.js';

export function JobSteps({ id }: { id: string }) {
  const { value } = useData<Job[]>('jobs', ['job']);
  const job = value?.find((each) => each.id === id);
  if (!job) return null;
  const reached = (step: Job['step']): boolean =>
    ['building', 'sent', 'mined'].indexOf(job.step) >= ['building', 'sent', 'mined'].indexOf(step);
  return (
    <section class="job" aria-live="polite" aria-label={`Progress: ${job.title}`} data-step={job.step}>
      <h3>{job.title}</h3>
      <ol class="steps">
        <li class={job.step === 'building' ? 'current' : 'done'}>Building the proof and sending</li>
        {reached('sent') && job.txid && (
          <li class={job.step === 'sent' ? 'current' : 'done'}>
            Sent: <Id value={job.txid} copy />
          </li>
        )}
        {job.step === 'mined' && <li class="done mined">In block {job.height}</li>}
        {job.outcome && <li class="done outcome">Outcome: {job.outcome}</li>}
      </ol>
      {job.error && <Failure message={job.error} />}
    </section>
  );
}

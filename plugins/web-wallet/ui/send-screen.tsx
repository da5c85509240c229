/**
 * Sending the native coin or a token: the destination (address, integrated address or registered name) checked as it
 * is typed, the asset (the native coin and every token the wallet holds), the amount in that asset's units or "max",
 * the ring; the fee (always in UMB) and ring shown before a confirm dialog, then the transfer's steps live.
 */
import { useEffect, useState } from 'preact/hooks';
import type { AssetBalance, DestinationCheck, Job, SendPreview, Settings } from '../api-types.js';
import { failure, get, post } from './api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { JobSteps } from './job-steps.js';
import { Failure, Id } from './parts.js';
import { useAttempt } from './use-attempt.js';
import { useData } from './use-data.js';

const RINGS = [2, 4, 8, 16, 32, 64, 128];
const CHECK_DELAY_MS = 250;
const NATIVE_ASSET = '0'.repeat(64);

/** The destination's check while typing: where it goes, or why it cannot. */
function useDestinationCheck(destination: string): { check?: DestinationCheck; error?: string } {
  const [state, setState] = useState<{ check?: DestinationCheck; error?: string }>({});
  useEffect(() => {
    if (destination.trim() === '') return setState({});
    let live = true;
    const timer = setTimeout(() => {
      post<DestinationCheck>('destination', { destination }).then(
        (check) => live && setState({ check }),
        (error: unknown) => live && setState({ error: failure(error) }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [destination]);
  return state;
}

export function SendScreen() {
  const [destination, setDestination] = useState('');
  const [amount, setAmount] = useState('');
  const [picked, setPicked] = useState(NATIVE_ASSET);
  const assets = useData<AssetBalance[]>('assets', ['wallet', 'job']).value ?? [];
  // The native coin, and every token the wallet holds some of.
  const sendable = assets.filter((asset) => asset.native || asset.atomic !== '0');
  // A token spent to nothing leaves the list: the native coin is chosen again.
  const chosen = sendable.find((asset) => asset.scid === picked) ?? sendable[0];
  const scid = chosen?.scid ?? NATIVE_ASSET;
  const [ring, setRing] = useState(16);
  const [preview, setPreview] = useState<SendPreview>();
  const { error, attempt } = useAttempt();
  const [jobId, setJobId] = useState('');
  const checked = useDestinationCheck(destination);
  useEffect(() => void get<Settings>('settings').then((settings) => setRing(settings.ring)), []);

  const previewOf = (asked: string): Promise<SendPreview> =>
    post<SendPreview>('send/preview', { destination, scid, amount: asked, ring });
  const max = (): Promise<void> => attempt(async () => setAmount((await previewOf('max')).text.replace(/ UMB$/, '')));
  const review = (event: Event): Promise<void> => {
    event.preventDefault();
    return attempt(async () => setPreview(await previewOf(amount)));
  };
  const confirm = (): Promise<void> =>
    attempt(async () => {
      setPreview(undefined);
      setJobId((await post<Job>('send', { destination, scid, amount, ring })).id);
    });

  return (
    <>
      <form onSubmit={review} class="send">
        <label for="send-destination">Destination</label>
        <input
          id="send-destination"
          value={destination}
          onInput={(e) => setDestination(e.currentTarget.value)}
          placeholder="address, integrated address or name"
          aria-describedby="destination-check"
          autocomplete="off"
          spellcheck={false}
          required
        />
        <p id="destination-check" class="hint" aria-live="polite">
          {checked.error ? (
            <span class="error">{checked.error}</span>
          ) : checked.check ? (
            <span class="ok">
              Goes to <Id value={checked.check.address} />
              {checked.check.args.length > 0 && ` with ${checked.check.args.join(', ')}`}
            </span>
          ) : null}
        </p>
        <label for="send-asset">Asset</label>
        <select
          id="send-asset"
          value={scid}
          onChange={(e) => {
            setPicked(e.currentTarget.value);
            setAmount('');
          }}
          aria-describedby="send-held"
        >
          {(sendable.length > 0 ? sendable : [{ scid: NATIVE_ASSET, name: 'UMB' }]).map((asset) => (
            <option key={asset.scid} value={asset.scid}>
              {asset.name}
            </option>
          ))}
        </select>
        {chosen && (
          <p id="send-held" class="hint">
            Held: {chosen.text}
            {chosen.native ? '' : ` ${chosen.name}; the fee is paid in UMB`}
          </p>
        )}
        <label for="send-amount">Amount ({chosen?.name ?? 'UMB'})</label>
        <div class="with-button">
          <input
            id="send-amount"
            inputMode="decimal"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
            placeholder="1.5"
            autocomplete="off"
            required
          />
          <button type="button" class="secondary" onClick={max}>
            Max
          </button>
        </div>
        <label for="send-ring">Ring size</label>
        <select id="send-ring" value={ring} onChange={(e) => setRing(Number(e.currentTarget.value))}>
          {RINGS.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <button type="submit">Review</button>
        {error && <Failure message={error} />}
      </form>
      {preview && (
        <ConfirmDialog
          title="Send this transfer?"
          confirm="Send"
          onConfirm={confirm}
          onCancel={() => setPreview(undefined)}
        >
          <dl class="facts">
            <dt>To</dt>
            <dd>
              <Id value={preview.address} />
            </dd>
            <dt>Amount</dt>
            <dd class="preview-amount">
              {preview.text}
              {scid === NATIVE_ASSET ? '' : ` ${preview.asset}`}
            </dd>
            <dt>Fee</dt>
            <dd class="preview-fee">{preview.feeText}</dd>
            <dt>Ring</dt>
            <dd class="preview-ring">{preview.ring}</dd>
          </dl>
        </ConfirmDialog>
      )}
      {jobId && <JobSteps id={jobId} />}
    </>
  );
}

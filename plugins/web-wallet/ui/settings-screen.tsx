/**
 * Settings: the ring a transfer uses unless asked otherwise, the idle lock's timeout, and the daemons — another one
 * is checked by the wallet process before the wallet moves to it, and a refusal says why while the old one stays.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Settings } from '../api-types.js';
import { failure, post } from './api.js';
import { Failure } from './parts.js';
import { useAttempt } from './use-attempt.js';
import { useData } from './use-data.js';

const RINGS = [2, 4, 8, 16, 32, 64, 128];

function GeneralForm({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const [ring, setRing] = useState(settings.ring);
  const [lockMinutes, setLockMinutes] = useState(settings.lockMinutes);
  const [saved, setSaved] = useState('');
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      onSaved(await post<Settings>('settings', { ring, lockMinutes }));
      setSaved('Saved.');
    } catch (reason) {
      setSaved(failure(reason));
    }
  };
  return (
    <form onSubmit={save} class="settings">
      <label for="settings-ring">Default ring size</label>
      <select id="settings-ring" value={ring} onChange={(e) => setRing(Number(e.currentTarget.value))}>
        {RINGS.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <label for="settings-lock">Lock after idle minutes</label>
      <input
        id="settings-lock"
        type="number"
        min={1}
        max={1440}
        value={lockMinutes}
        onInput={(e) => setLockMinutes(Number(e.currentTarget.value))}
      />
      <button type="submit">Save</button>
      <p role="status">{saved}</p>
    </form>
  );
}

function DaemonForm({ settings, onMoved }: { settings: Settings; onMoved: (settings: Settings) => void }) {
  const [daemon, setDaemon] = useState(settings.daemon);
  const [sendDaemon, setSendDaemon] = useState(settings.sendDaemon ?? '');
  const [moved, setMoved] = useState('');
  const { error, busy, attempt } = useAttempt();
  const move = (event: Event): Promise<void> => {
    event.preventDefault();
    setMoved('');
    return attempt(async () => {
      const change = {
        ...(daemon.trim() !== settings.daemon ? { daemon } : {}),
        ...(settings.sendDaemon !== null && sendDaemon.trim() !== settings.sendDaemon ? { sendDaemon } : {}),
      };
      if (Object.keys(change).length === 0) return setMoved('Nothing changed.');
      const now = await post<Settings>('settings/daemon', change);
      onMoved(now);
      setDaemon(now.daemon);
      setSendDaemon(now.sendDaemon ?? '');
      setMoved(
        `Checked; the wallet now uses ${now.daemon}${now.sendDaemon ? ` and sends through ${now.sendDaemon}` : ''}.`,
      );
    });
  };
  return (
    <form onSubmit={move} class="daemon" aria-labelledby="daemon-title" aria-busy={busy}>
      <h3 id="daemon-title">Daemon</h3>
      <label for="settings-daemon">Daemon (host:port or URL)</label>
      <input
        id="settings-daemon"
        value={daemon}
        onInput={(e) => setDaemon(e.currentTarget.value)}
        aria-describedby="daemon-hint"
        autocomplete="off"
        spellcheck={false}
        required
      />
      {settings.sendDaemon !== null && (
        <>
          <label for="settings-send-daemon">Send through</label>
          <input
            id="settings-send-daemon"
            value={sendDaemon}
            onInput={(e) => setSendDaemon(e.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
            required
          />
        </>
      )}
      <p id="daemon-hint" class="hint">
        Another daemon is checked before it is used: it must answer, be on this wallet's network and, when the wallet
        checks headers, extend the chain it verified. Syncing and sending then move to it without a restart.
        {settings.kept
          ? ' The choice is kept in the wallet file for the next start; --daemon-address (or --send-daemon) given at start wins.'
          : ' The choice lasts until the wallet stops.'}
      </p>
      <button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Check and use'}
      </button>
      <p role="status" class="daemon-moved">
        {moved}
      </p>
      {error && <Failure message={error} />}
    </form>
  );
}

export function SettingsScreen() {
  const { value, error } = useData<Settings>('settings', []);
  const [settings, setSettings] = useState<Settings>();
  useEffect(() => setSettings(value), [value]);
  if (!settings) return error ? <Failure message={error} /> : <p class="loading">Reading the settings…</p>;
  return (
    <>
      <GeneralForm settings={settings} onSaved={setSettings} />
      <DaemonForm settings={settings} onMoved={setSettings} />
    </>
  );
}

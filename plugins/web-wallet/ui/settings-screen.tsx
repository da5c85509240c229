/** Settings: the ring a transfer uses unless asked otherwise, the idle lock's timeout, and the daemon in use. */
import { useEffect, useState } from 'preact/hooks';
import type { Settings } from '../api-types.js';
import { failure, post } from './api.js';
import { Failure } from './parts.js';
import { useData } from './use-data.js';

const RINGS = [2, 4, 8, 16, 32, 64, 128];

export function SettingsScreen() {
  const { value, error } = useData<Settings>('settings', []);
  const [form, setForm] = useState<Settings>();
  const [saved, setSaved] = useState('');
  useEffect(() => setForm(value), [value]);
  if (!form) return error ? <Failure message={error} /> : <p class="loading">Reading the settings…</p>;
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      setForm(await post<Settings>('settings', { ring: form.ring, lockMinutes: form.lockMinutes }));
      setSaved('Saved.');
    } catch (reason) {
      setSaved(failure(reason));
    }
  };
  return (
    <form onSubmit={save} class="settings">
      <label for="settings-ring">Default ring size</label>
      <select
        id="settings-ring"
        value={form.ring}
        onChange={(e) => setForm({ ...form, ring: Number(e.currentTarget.value) })}
      >
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
        value={form.lockMinutes}
        onInput={(e) => setForm({ ...form, lockMinutes: Number(e.currentTarget.value) })}
      />
      <label for="settings-daemon">Daemon</label>
      <input id="settings-daemon" value={form.daemon} readOnly aria-describedby="daemon-hint" />
      <p id="daemon-hint" class="hint">
        Another daemon: restart the wallet with --daemon-address.
      </p>
      <button type="submit">Save</button>
      <p role="status">{saved}</p>
    </form>
  );
}

/** The locked wallet: only its password opens it again (checked against the wallet file by the wallet process). */
import { useState } from 'preact/hooks';
import { failure, post } from './api.js';

export function LockScreen({ unlocked }: { unlocked: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      await post('unlock', { password });
      setPassword('');
      unlocked();
    } catch (reason) {
      setError(failure(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="lock" aria-label="Locked">
      <h1>Umbra wallet</h1>
      <p>The wallet is locked.</p>
      <form onSubmit={submit}>
        <label for="unlock-password">Wallet password</label>
        <input
          id="unlock-password"
          type="password"
          autocomplete="current-password"
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
          autofocus
          required
        />
        <button type="submit" disabled={busy}>
          Unlock
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

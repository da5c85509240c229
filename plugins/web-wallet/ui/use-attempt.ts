/**
 * A form's failure line and busy state: `attempt` clears the line, runs the work, and on a failure shows why (the
 * API's message); `busy` holds while the work runs.
 */
import { useState } from 'preact/hooks';
import { failure } from './api.js';

export function useAttempt() {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const attempt = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (reason) {
      setError(failure(reason));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, attempt };
}

/**
 * The page's frame: a header with the lock button, the screens as tabs (the URL's hash names the screen, so that
 * the browser's back button and links work), and the lock screen over everything while the wallet is locked; before
 * all that, while there is no wallet file yet, the setup that makes one.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, onLocked, onPush, post } from './api.js';
import { ApprovalsScreen } from './approvals-screen.js';
import { ContractsScreen } from './contracts-screen.js';
import { HistoryScreen } from './history-screen.js';
import { LockScreen } from './lock-screen.js';
import { OverviewScreen } from './overview-screen.js';
import { ReceiveScreen } from './receive-screen.js';
import { SendScreen } from './send-screen.js';
import { SettingsScreen } from './settings-screen.js';
import { SetupScreen } from './setup-screen.js';

const SCREENS: Record<string, { title: string; view: () => ComponentChildren }> = {
  overview: { title: 'Overview', view: () => <OverviewScreen /> },
  receive: { title: 'Receive', view: () => <ReceiveScreen /> },
  send: { title: 'Send', view: () => <SendScreen /> },
  history: { title: 'History', view: () => <HistoryScreen /> },
  contracts: { title: 'Contracts', view: () => <ContractsScreen /> },
  approvals: { title: 'Approvals', view: () => <ApprovalsScreen /> },
  settings: { title: 'Settings', view: () => <SettingsScreen /> },
};

const screenOfHash = (): string => {
  const name = location.hash.slice(1);
  return name in SCREENS ? name : 'overview';
};

export function App() {
  const [screen, setScreen] = useState(screenOfHash);
  const [locked, setLocked] = useState<boolean | undefined>(undefined);
  /** The network of a wallet the page must first create or restore; null when the wallet exists. */
  const [setup, setSetup] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    get<{ needed: boolean; network: string }>('setup').then(
      (answer) => setSetup(answer.needed ? answer.network : null),
      () => setSetup(null),
    );
  }, []);
  useEffect(() => {
    if (setup !== null) return;
    const readLock = (): void => void get<{ locked: boolean }>('state').then((state) => setLocked(state.locked));
    readLock();
    const follow = (): void => setScreen(screenOfHash());
    window.addEventListener('hashchange', follow);
    const stops = [onLocked(() => setLocked(true)), onPush((topic) => topic === 'lock' && readLock())];
    return () => {
      window.removeEventListener('hashchange', follow);
      for (const stop of stops) stop();
    };
  }, [setup]);
  if (setup) return <SetupScreen network={setup} done={() => setSetup(null)} />;
  if (locked === undefined) return <p class="loading">Opening the wallet…</p>;
  if (locked) return <LockScreen unlocked={() => setLocked(false)} />;
  const current = SCREENS[screen]!;
  return (
    <>
      <header class="top">
        <h1>Umbra wallet</h1>
        <button type="button" class="secondary" onClick={() => void post('lock').then(() => setLocked(true))}>
          Lock
        </button>
      </header>
      <nav aria-label="Screens">
        <ul>
          {Object.entries(SCREENS).map(([name, { title }]) => (
            <li key={name}>
              <a href={`#${name}`} aria-current={name === screen ? 'page' : undefined}>
                {title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id={`screen-${screen}`} aria-label={current.title}>
        <h2>{current.title}</h2>
        {current.view()}
      </main>
    </>
  );
}

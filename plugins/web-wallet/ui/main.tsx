/** The web wallet's page: mounts the app and reports activity, which keeps the idle lock away. */
import { render } from 'preact';
import { post } from './api.js';
import { App } from './app.js';
import './style.css';

/** At most one activity report per this many milliseconds. */
const TOUCH_EVERY_MS = 20_000;
let lastTouch = 0;
const touch = (): void => {
  if (Date.now() - lastTouch < TOUCH_EVERY_MS) return;
  lastTouch = Date.now();
  post('touch').catch(() => undefined);
};
for (const event of ['keydown', 'pointerdown']) document.addEventListener(event, touch, { passive: true });

render(<App />, document.getElementById('app')!);

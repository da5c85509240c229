/** The page for anything the chain does not hold or the explorer cannot read: a 404 with the reason, in our words. */
import { html } from './html.js';
import { page } from './layout.js';

export function renderNotFound(message: string): string {
  return page(
    { title: 'Not found' },
    html`<h1>Not found</h1><p class="error">${message}</p><p>Search again above, or go back to the <a href="/explorer/">home page</a>.</p>`,
  );
}

/**
 * The frame every explorer page shares: head (title, stylesheet, viewport), header with the search box and links, the
 * page's main content, and the pieces pages are built from — ids shortened in the middle with the whole value in
 * their title and a copy button, amounts in coins with the atomic units in their title, tables that turn into cards on
 * a phone — so every page fits a narrow screen the same way.
 */
import { formatCoins } from '../../protocol/coin-amount.js';
import { html, raw, type Html } from './html.js';

export const BASE = '/explorer/';

export interface PageOptions {
  title: string;
  /** Extra markup for the head (the home page's chart library). */
  head?: Html;
  /** Scripts before the page's own (the home page's chart library). */
  scripts?: Html;
}

export function page(options: PageOptions, main: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Umbra explorer</title>
<link rel="stylesheet" href="${BASE}assets/explorer.css">
${options.head}
</head>
<body>
<header>
<a class="brand" href="${BASE}">Umbra explorer</a>
<nav><a href="${BASE}">Home</a> <a href="${BASE}pool">Pool</a></nav>
<form action="${BASE}search" method="get" role="search">
<input name="q" type="search" placeholder="height, block hash, txid, SCID, address or name" aria-label="Search" required>
<button type="submit">Search</button>
</form>
</header>
<main>
${main}
</main>
${options.scripts}
<script src="${BASE}assets/explorer.js"></script>
</body>
</html>
`.text;
}

/** Characters kept at the end of a shortened id, and at its start unless it says otherwise. */
const KEPT = 8;

/**
 * `value` with its middle left out, e.g. 3f9a1c0e…77b2d410; short values whole. `head` keeps more of the start where
 * every value begins alike (an address's network prefix).
 */
export const shortened = (value: string, head = KEPT): string =>
  value.length <= head + KEPT + 1 ? value : `${value.slice(0, head)}…${value.slice(-KEPT)}`;

/** The button that copies `value` (the page's script makes it work and shows it; without a script it stays hidden). */
const copyButton = (value: string, what: string): Html =>
  html`<button type="button" class="copy" data-copy="${value}" data-what="${what}" aria-label="Copy the ${what}" title="Copy the ${what}"><svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><rect x="5" y="5" width="9" height="9" rx="1.5"/><path d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5"/></svg></button>`;

/** An id (hash, address) shortened in the middle, the whole of it in the title, a link when `href` is given. */
export function id(value: string, what: string, href?: string, head?: number): Html {
  const text = shortened(value, head);
  const shown = href
    ? html`<a class="hash" href="${href}" title="${value}">${text}</a>`
    : html`<span class="hash" title="${value}">${text}</span>`;
  return html`<span class="id">${shown}${copyButton(value, what)}</span>`;
}

/** The id a page is about, whole (it wraps on a narrow screen), with its copy button. */
export const wholeId = (value: string, what: string): Html =>
  html`<span class="id whole"><span class="hash">${value}</span>${copyButton(value, what)}</span>`;

export const blockLink = (hashOrHeight: string | number, text: string | number | Html = hashOrHeight): Html =>
  html`<a href="${BASE}block/${hashOrHeight}">${text}</a>`;
export const blockHashLink = (hash: string): Html => id(hash, 'block hash', `${BASE}block/${hash}`);
export const txLink = (txid: string): Html => id(txid, 'txid', `${BASE}tx/${txid}`);
export const contractLink = (scid: string): Html => id(scid, 'SCID', `${BASE}contract/${scid}`);
/** Characters of an address kept at its start: its network prefix (umbt1, umbs1…) and 7 more. */
const ADDRESS_HEAD = 12;
export const addressLink = (address: string): Html => id(address, 'address', `${BASE}address/${address}`, ADDRESS_HEAD);

/** An amount of atomic units in coins (UMB for the native coin), the exact atomic units in its title. */
export const amount = (atomic: bigint, unit = 'UMB'): Html =>
  html`<span class="amount" title="${atomic} atomic units">${formatCoins(atomic)}${unit && ` ${unit}`}</span>`;

/** A millisecond timestamp as UTC, e.g. 2026-11-27 10:00:03 UTC. */
export const utc = (ms: number): string =>
  ms === 0
    ? '—'
    : `${new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')} UTC`;

/** A definition list of label → value rows. */
export const facts = (rows: [string, unknown][]): Html =>
  html`<dl class="facts">${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;

/**
 * A table in a box that scrolls sideways when it is wider than the screen; on a phone each row becomes a card whose
 * cells carry their column's name.
 */
export const table = (tableId: string, columns: string[], rows: unknown[][]): Html =>
  html`<div class="table-box"><table id="${tableId}" class="cards"><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody>${rows.map(
    (row) => html`<tr>${row.map((cell, i) => html`<td data-label="${columns[i]}">${cell}</td>`)}</tr>`,
  )}</tbody></table></div>`;

/** The native coin's asset id. */
const NATIVE = /^0{64}$/;

/** The asset a payload moves: the native coin or a token contract. */
export const assetLabel = (scid: string): Html => (NATIVE.test(scid) ? raw('UMB (native)') : contractLink(scid));

/** An amount of an asset: UMB for the native coin; a token's in its own units, named beside it. */
export const assetAmount = (atomic: bigint, scid: string): Html => amount(atomic, NATIVE.test(scid) ? 'UMB' : '');

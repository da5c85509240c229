/**
 * The frame every explorer page shares: head (title, stylesheet), header with the search box and links, the page's
 * main content, and the formatting helpers pages use for hashes, times and links.
 */
import { html, raw, type Html } from './html.js';

export const BASE = '/explorer/';

export interface PageOptions {
  title: string;
  /** Extra markup for the head (the home page's chart library). */
  head?: Html;
  /** Scripts at the end of the body. */
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
</body>
</html>
`.text;
}

export const blockLink = (hashOrHeight: string | number, text: string | number | Html = hashOrHeight): Html =>
  html`<a href="${BASE}block/${hashOrHeight}">${text}</a>`;
export const txLink = (txid: string): Html => html`<a class="hash" href="${BASE}tx/${txid}">${txid}</a>`;
export const contractLink = (scid: string): Html => html`<a class="hash" href="${BASE}contract/${scid}">${scid}</a>`;
export const addressLink = (address: string): Html =>
  html`<a class="hash" href="${BASE}address/${address}">${address}</a>`;
export const hash = (hex: string): Html => html`<span class="hash">${hex}</span>`;

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

/** The asset a payload moves: the native coin or a token contract. */
export const assetLabel = (scid: string): Html => (/^0+$/.test(scid) ? raw('UMB (native)') : contractLink(scid));

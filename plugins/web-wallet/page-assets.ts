/**
 * The page's files, served from the package (no CDN): the bundle and style sheet `make` builds into dist/ beside this
 * module (scripts/build-web-wallet.mjs), kept in memory with their gzip, and the HTML shell that loads them.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export interface PageAsset {
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
}

const FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The built assets by path (`/assets/app.js`); a clear failure when they were not built. */
export function loadPageAssets(): Map<string, PageAsset> {
  const assets = new Map<string, PageAsset>();
  for (const [name, contentType] of Object.entries(FILES)) {
    let body: Buffer;
    try {
      body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    } catch {
      throw new Error(`the web wallet's page is not built (assets/${name} is missing): run make`);
    }
    assets.set(`/assets/${name}`, { contentType, body, gzipped: gzipSync(body, { level: 9 }) });
  }
  return assets;
}

const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The HTML shell; the page reads its session token from the meta element. */
export const pageHtml = (sessionToken: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="umbra-session" content="${escapeAttribute(sessionToken)}">
<title>Umbra wallet</title>
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body><div id="app"></div></body>
</html>
`;

/** What a browser without a session sees. */
export const noSessionHtml = (message: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Umbra wallet</title></head>
<body><h1>Umbra wallet</h1><p>${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p></body></html>
`;

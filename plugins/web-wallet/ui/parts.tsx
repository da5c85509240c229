/**
 * Small pieces every screen uses: a long id that wraps, a copy button, a failure line, an asset's name with its SCID
 * in its title.
 */
import { useState } from 'preact/hooks';
import type { AssetBalance } from '../api-types.js';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = (): void =>
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  return (
    <button type="button" class="copy secondary" onClick={copy} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A hash or an address: wraps anywhere, so that it never widens the page; `copy` adds a copy button. */
export function Id({ value, copy }: { value: string; copy?: boolean }) {
  return (
    <span class="id">
      <code class="hash">{value}</code>
      {copy && <CopyButton text={value} label={`Copy ${value}`} />}
    </span>
  );
}

export function Failure({ message }: { message: string }) {
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

/** An asset by name; a token's SCID in full in its title, and a mark when the name is the user's own label. */
export function AssetLabel({ asset }: { asset: Pick<AssetBalance, 'name' | 'source' | 'scid'> }) {
  return (
    <span class={`asset ${asset.source}`} title={asset.source === 'native' ? undefined : asset.scid}>
      {asset.name}
      {asset.source === 'label' && <span class="label-mark"> (your label)</span>}
    </span>
  );
}

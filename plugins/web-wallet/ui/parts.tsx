/** Small pieces every screen uses: a long id shortened with the whole in its title, a copy button, a failure line. */
import { useState } from 'preact/hooks';

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

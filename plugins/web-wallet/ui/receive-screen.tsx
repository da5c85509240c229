/**
 * Receiving: the wallet's address with its QR code, and an integrated address built from payload arguments (each a
 * name, a type and a value) that a sender's wallet puts into the transfer's payload.
 */
import { useState } from 'preact/hooks';
import type { Overview } from '../api-types.js';
import { failure, post } from './api.js';
import { Failure, Id } from './parts.js';
import { QrCode } from './qr-code.js';
import { useData } from './use-data.js';

interface ArgumentRow {
  name: string;
  type: 'String' | 'Uint64';
  value: string;
}

function IntegratedBuilder() {
  const [rows, setRows] = useState<ArgumentRow[]>([{ name: 'comment', type: 'String', value: '' }]);
  const [built, setBuilt] = useState<{ address?: string; error?: string }>({});
  const change = (index: number, patch: Partial<ArgumentRow>): void =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const build = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      setBuilt(await post<{ address: string }>('integrated', { args: rows }));
    } catch (error) {
      setBuilt({ error: failure(error) });
    }
  };
  return (
    <form onSubmit={build} aria-labelledby="integrated-title">
      <h3 id="integrated-title">Integrated address</h3>
      {rows.map((row, i) => (
        <fieldset key={i} class="argument">
          <legend>Argument {i + 1}</legend>
          <label for={`arg-name-${i}`}>Name</label>
          <input id={`arg-name-${i}`} value={row.name} onInput={(e) => change(i, { name: e.currentTarget.value })} />
          <label for={`arg-type-${i}`}>Type</label>
          <select
            id={`arg-type-${i}`}
            value={row.type}
            onChange={(e) => change(i, { type: e.currentTarget.value as ArgumentRow['type'] })}
          >
            <option value="String">String</option>
            <option value="Uint64">Uint64</option>
          </select>
          <label for={`arg-value-${i}`}>Value</label>
          <input id={`arg-value-${i}`} value={row.value} onInput={(e) => change(i, { value: e.currentTarget.value })} />
        </fieldset>
      ))}
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => setRows([...rows, { name: '', type: 'String', value: '' }])}
        >
          Add an argument
        </button>
        <button type="submit">Build</button>
      </div>
      {built.error && <Failure message={built.error} />}
      {built.address && (
        <div class="built">
          <Id value={built.address} copy />
          <QrCode text={built.address} label="QR code of the integrated address" />
        </div>
      )}
    </form>
  );
}

export function ReceiveScreen() {
  const { value, error } = useData<Overview>('overview', []);
  if (!value) return error ? <Failure message={error} /> : <p class="loading">Reading the address…</p>;
  return (
    <>
      <section aria-labelledby="address-title">
        <h3 id="address-title">Your address</h3>
        <Id value={value.address} copy />
        <QrCode text={value.address} label="QR code of your address" />
      </section>
      <IntegratedBuilder />
    </>
  );
}

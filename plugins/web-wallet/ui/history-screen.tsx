/**
 * The history of every asset, newest first: filtered by direction, by asset and by text (a txid or an address), each
 * entry opening to its details and its payment proof, to copy and give to the receiver or an arbiter; and a proof
 * someone gave checked against its transaction.
 */
import { useState } from 'preact/hooks';
import type { HistoryRow, ProofCheck } from '../api-types.js';
import { failure, post } from './api.js';
import { Failure, Id } from './parts.js';
import { useData } from './use-data.js';

type Direction = 'all' | 'in' | 'out';

const matches = (row: HistoryRow, direction: Direction, asset: string, text: string): boolean =>
  (direction === 'all' || row.incoming === (direction === 'in')) &&
  (asset === '' || row.scid === asset) &&
  (text === '' || row.txid.includes(text) || row.counterparty.includes(text));

const isNative = (scid: string): boolean => /^0+$/.test(scid);

function Entry({ row }: { row: HistoryRow }) {
  return (
    <li class={`entry ${row.incoming ? 'incoming' : 'outgoing'}`} data-txid={row.txid}>
      <details>
        <summary>
          <span class="direction">{row.coinbase ? 'Mined' : row.incoming ? 'Received' : 'Sent'}</span>
          <span class="amount" title={`${row.atomic} atomic units`}>
            {row.incoming ? '+' : '−'}
            {row.text}
            {isNative(row.scid) ? '' : ` ${row.asset}`}
          </span>
          <span class="when">{row.height === 0 ? 'in the pool' : `block ${row.height}`}</span>
        </summary>
        <dl class="facts">
          <dt>Transaction</dt>
          <dd>{row.txid ? <Id value={row.txid} copy /> : 'none'}</dd>
          <dt>{row.incoming ? 'From' : 'To'}</dt>
          <dd>{row.counterparty ? <Id value={row.counterparty} /> : 'hidden in the ring'}</dd>
          <dt>Time</dt>
          <dd>{row.time}</dd>
          {!row.incoming && (
            <>
              <dt>Fee</dt>
              <dd>{row.feeText}</dd>
            </>
          )}
          {row.outcome && (
            <>
              <dt>Outcome</dt>
              <dd>{row.outcome}</dd>
            </>
          )}
          {row.proof && (
            <>
              <dt>Payment proof</dt>
              <dd>
                <Id value={row.proof} copy />
              </dd>
            </>
          )}
        </dl>
      </details>
    </li>
  );
}

/** A payment proof someone gave (or one of the wallet's own) checked against its transaction. */
function ProofChecker() {
  const [txid, setTxid] = useState('');
  const [proof, setProof] = useState('');
  const [answer, setAnswer] = useState<ProofCheck>();
  const check = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      setAnswer(await post<ProofCheck>('proof', { txid, proof }));
    } catch (error) {
      setAnswer({ ok: false, message: failure(error) });
    }
  };
  return (
    <form onSubmit={check} class="proof-check" aria-labelledby="proof-title">
      <h3 id="proof-title">Check a payment proof</h3>
      <label for="proof-txid">Transaction</label>
      <input
        id="proof-txid"
        value={txid}
        onInput={(e) => setTxid(e.currentTarget.value.trim())}
        spellcheck={false}
        required
      />
      <label for="proof-text">Payment proof</label>
      <input
        id="proof-text"
        value={proof}
        onInput={(e) => setProof(e.currentTarget.value.trim())}
        spellcheck={false}
        required
      />
      <button type="submit">Check</button>
      {answer && (
        <p class={`proof-answer ${answer.ok ? 'ok' : 'error'}`} role="status">
          {answer.ok ? 'The proof fits: ' : 'The proof does not fit: '}
          {answer.message}
        </p>
      )}
    </form>
  );
}

export function HistoryScreen() {
  const { value, error } = useData<HistoryRow[]>('history', ['wallet', 'job']);
  const [direction, setDirection] = useState<Direction>('all');
  const [asset, setAsset] = useState('');
  const [text, setText] = useState('');
  if (!value) return error ? <Failure message={error} /> : <p class="loading">Reading the history…</p>;
  // Each asset once by name, the native coin first.
  const assets = [...new Map(value.map((row) => [row.scid, row.asset]))].sort(
    ([a], [b]) => Number(isNative(b)) - Number(isNative(a)),
  );
  const shown = value.filter((row) => matches(row, direction, asset, text.trim()));
  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label for="history-direction">Direction</label>
        <select
          id="history-direction"
          value={direction}
          onChange={(e) => setDirection(e.currentTarget.value as Direction)}
        >
          <option value="all">All</option>
          <option value="in">Received</option>
          <option value="out">Sent</option>
        </select>
        <label for="history-asset">Asset</label>
        <select id="history-asset" value={asset} onChange={(e) => setAsset(e.currentTarget.value)}>
          <option value="">All assets</option>
          {assets.map(([scid, name]) => (
            <option key={scid} value={scid}>
              {name}
            </option>
          ))}
        </select>
        <label for="history-text">Transaction or address</label>
        <input id="history-text" value={text} onInput={(e) => setText(e.currentTarget.value)} autocomplete="off" />
      </form>
      {shown.length === 0 ? (
        <p>No entries{value.length > 0 ? ' match the filters' : ' yet'}.</p>
      ) : (
        <ul class="history">
          {shown.map((row) => (
            <Entry key={row.key} row={row} />
          ))}
        </ul>
      )}
      <ProofChecker />
    </>
  );
}

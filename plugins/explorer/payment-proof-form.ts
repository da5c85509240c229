/**
 * The transaction page's payment-proof form: a labelled field and a button that send the proof back to the same page
 * (`?proof=…`, a plain GET, so it works with JavaScript off), and the daemon's verdict (NODE.CheckPaymentProof)
 * rendered under it — who received how much, or why the proof does not fit.
 */
import { formatCoins } from '../../protocol/coin-amount.js';
import type { PaymentProofAnswer } from './daemon-answers.js';
import type { DaemonQuery } from './daemon-queries.js';
import { html, type Html } from './html.js';
import { addressLink, BASE, contractLink } from './layout.js';

/** A proof the page was asked to check, and the daemon's answer. */
export interface ProofCheck {
  proof: string;
  answer: PaymentProofAnswer;
}

/** The check of `proof` against transaction `txid`; null when the page was not asked for one. */
export async function proofCheck(query: DaemonQuery, txid: string, proof: string | null): Promise<ProofCheck | null> {
  if (proof === null) return null;
  return { proof, answer: await query('NODE.CheckPaymentProof', { txid, proof }) };
}

function verdict(answer: PaymentProofAnswer): Html {
  if (!answer.valid)
    return html`<p class="proof-result error" role="alert"><strong>Does not fit:</strong> ${answer.reason}</p>`;
  const amount = BigInt(answer.amount);
  const received = /^0+$/.test(answer.asset)
    ? html`<strong>${formatCoins(amount)} UMB</strong> (${amount} atomic units)`
    : html`<strong>${amount}</strong> units of token ${contractLink(answer.asset)}`;
  const args = answer.payload_rpc.map((arg) => `${arg.name}:${arg.datatype}=${String(arg.value)}`).join(', ');
  return html`<p class="proof-result outcome-committed" role="status"><strong>Fits:</strong> ${addressLink(answer.receiver)} received ${received} — ring member ${answer.ring_index + 1} of ${answer.ring_size} in payload ${answer.payload + 1}.${args && html` Payload: <span class="value">${args}</span>.`}</p>`;
}

/** The form (holding the proof last checked) and, when one was checked, its verdict. */
export function paymentProofForm(txid: string, check: ProofCheck | null): Html {
  return html`<section id="payment-proof" class="proof-check" aria-labelledby="payment-proof-title">
<h2 id="payment-proof-title">Check a payment proof</h2>
<form method="get" action="${BASE}tx/${txid}#payment-proof">
<label for="proof">Payment proof (<span class="hash">umbproof1…</span>) the sender gave for this transaction</label>
<input id="proof" name="proof" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="umbproof1…" value="${check?.proof ?? ''}">
<button type="submit">Check</button>
</form>
${check && verdict(check.answer)}
</section>`;
}

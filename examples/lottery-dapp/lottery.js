// The lottery page's behaviour: a JSON-RPC client of the wallet's connection endpoint (docs/dapps.md), asking to
// connect, for the address, then for a call of the contract's Lottery entry point with the deposit as its value.

/** Atomic units per coin (5 decimals). */
const COIN = 100000n;

/** A connection to the wallet: each call's answer by its id; an error answer rejects with the wallet's code. */
class WalletConnection {
  #socket;
  #nextId = 1;
  #waiting = new Map();

  static open(url) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener('open', () => resolve(new WalletConnection(socket)), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot reach the wallet at ${url}`)), { once: true });
    });
  }

  constructor(socket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const answer = JSON.parse(event.data);
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#waiting.delete(answer.id);
      if (answer.error) waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      else waiting.resolve(answer.result);
    });
    socket.addEventListener('close', (event) => {
      for (const { reject } of this.#waiting.values())
        reject(new Error(`the wallet closed the connection (${event.reason || event.code})`));
      this.#waiting.clear();
    });
  }

  call(method, params) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }
}

/** Coins as typed ("0.5") in atomic units, as a decimal string. */
function atomicUnits(coins) {
  const [whole, fraction = ''] = coins.split('.');
  return (BigInt(whole) * COIN + BigInt(fraction.padEnd(5, '0'))).toString();
}

/** What the user reads for a refusal: the codes are docs/dapps.md's. */
function refusal(error) {
  const reasons = { 4001: 'you denied it in the wallet', 4002: 'the wallet did not answer in time' };
  return reasons[error.code] ?? error.message;
}

const $ = (id) => document.getElementById(id);
const say = (text) => {
  $('status').textContent = text;
};
const query = new URLSearchParams(location.search);
$('wallet').value = query.get('wallet') ?? '';
$('scid').value = query.get('scid') ?? '';
let wallet;

$('settings').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    say('Asking the wallet to connect…');
    wallet = await WalletConnection.open($('wallet').value);
    await wallet.call('connect', { name: 'Umbra lottery' });
    say('Asking the wallet for your address…');
    $('address').value = (await wallet.call('getAddress')).address;
    $('enter').hidden = false;
    say('Connected.');
  } catch (error) {
    say(`Not connected: ${refusal(error)}`);
  }
});

$('enter').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    say('Asking the wallet to enter the lottery…');
    // Ring 2: the contract must know who deposited to pay a winner.
    const sent = await wallet.call('callContract', {
      scid: $('scid').value.toLowerCase(),
      entrypoint: 'Lottery',
      deposits: { coin: atomicUnits($('amount').value) },
      ring: 2,
    });
    say(`Entered: transaction ${sent.txid}`);
  } catch (error) {
    say(`Not entered: ${refusal(error)}`);
  }
});

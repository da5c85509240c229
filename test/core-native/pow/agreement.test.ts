/**
 * Native AstroBWTv3 against the TypeScript reference on thousands of seeded random inputs of varied lengths and
 * shapes. The fallback takes ~20 ms a hash, so the inputs are shared among worker threads, which hash each one with
 * both implementations; the main thread hashes every input natively too, so native results from the main thread
 * and from workers must agree as well.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { bothCores, nativeMissing } from '../../helpers/core-impls.js';

const COUNT = 1500;

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function generator(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let x = seed;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

function makeInputs(count: number, seed: number): Uint8Array[] {
  const random = generator(seed);
  const byte = (): number => Math.floor(random() * 256);
  const inputs: Uint8Array[] = [
    new Uint8Array(0),
    new Uint8Array(1),
    new Uint8Array(48),
    new Uint8Array(4096).fill(0xff),
  ];
  while (inputs.length < count) {
    const shape = random();
    // Mostly 48-byte miniblocks; otherwise any length up to 600 bytes (SHA-256 block boundaries included).
    const length = shape < 0.5 ? 48 : Math.floor(random() * 601);
    const input = new Uint8Array(length);
    if (shape < 0.35 || shape >= 0.6) {
      for (let i = 0; i < length; i++) input[i] = byte();
    } else {
      // A constant blob; for miniblocks with a random nonce in the last 4 bytes, as a miner varies it.
      input.fill(byte());
      if (length === 48) for (let i = 44; i < 48; i++) input[i] = byte();
    }
    inputs.push(input);
  }
  return inputs;
}

function hashInWorker(inputs: Uint8Array[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./agreement-worker.js', import.meta.url), { workerData: { inputs } });
    worker.once('message', (out: Uint8Array) => resolve(out));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`worker exited with code ${code}`))));
  });
}

t.test(`native and fallback agree on ${COUNT} random inputs`, { skip: nativeMissing() }, async (t) => {
  const { native } = await bothCores();
  const inputs = makeInputs(COUNT, 20240611);
  const workers = Math.max(1, Math.min(4, availableParallelism()));
  const share = Math.ceil(inputs.length / workers);
  const shares = Array.from({ length: workers }, (_, w) => inputs.slice(w * share, (w + 1) * share));
  const pending = Promise.all(shares.map(hashInWorker));
  const mainNative = inputs.map((input) => Buffer.from(native.powHash(input)).toString('hex'));
  const results = await pending;
  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
  let mismatches = 0;
  shares.forEach((share, w) =>
    share.forEach((input, i) => {
      const index = w * shares[0]!.length + i;
      const fallbackHash = hex(results[w]!.subarray(i * 64, i * 64 + 32));
      const workerNative = hex(results[w]!.subarray(i * 64 + 32, i * 64 + 64));
      if (fallbackHash !== mainNative[index] || workerNative !== mainNative[index]) {
        if (mismatches++ < 5) {
          t.fail(
            `input ${index} (${input.length} bytes ${hex(input.subarray(0, 64))}…): fallback ${fallbackHash}, native ${mainNative[index]}, native in a worker ${workerNative}`,
          );
        }
      }
    }),
  );
  t.equal(
    mismatches,
    0,
    `all ${inputs.length} inputs hash the same natively (main thread and workers) and in TypeScript`,
  );
  t.equal(new Set(mainNative).size, new Set(inputs.map(hex)).size, 'distinct inputs give distinct hashes');
});

/**
 * Admission batches: what arrives together is shared over the batches that may start (four at a time, 16 to 64 each);
 * what arrives while four are being verified waits and goes in the next; every submission is answered by admission
 * in arrival order.
 */
import t from 'tap';
import { AdmissionBatches } from '../../../plugins/mempool/admission-batches.js';

/** Batches whose verification the test finishes, one at a time. */
function harness() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const admitted: number[] = [];
  const pool = new AdmissionBatches<number, undefined>(
    (bytes) => ({ id: bytes, bytes, tx: bytes[0]! }),
    (batch) => {
      batches.push(batch.map((c) => c.tx));
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    (candidate) => {
      admitted.push(candidate.tx);
      return candidate.id;
    },
  );
  const submit = (from: number, count: number): Promise<Uint8Array[]> =>
    Promise.all(Array.from({ length: count }, (_, i) => pool.add(Uint8Array.of(from + i), undefined)));
  return { batches, finish, admitted, submit };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sizes = (batches: number[][]): number[] => batches.map((b) => b.length);

t.test('what arrives together is shared over four batches, at least 16 and at most 64 each', async (t) => {
  for (const [count, expected] of [
    [10, [10]],
    [40, [16, 16, 8]],
    [64, [16, 16, 16, 16]],
    [100, [25, 25, 25, 25]],
    [255, [64, 64, 64, 63]],
  ] as const) {
    const { batches, finish, submit } = harness();
    const answered = submit(0, count);
    await turn();
    t.same(sizes(batches), expected, `${count} at once`);
    for (const done of finish) done();
    t.equal((await answered).length, count, `${count}: every one answered`);
  }
});

t.test('what arrives while four batches run waits for the next; admission keeps arrival order', async (t) => {
  const { batches, finish, admitted, submit } = harness();
  const first = submit(0, 64);
  await turn();
  const later = submit(100, 20);
  await turn();
  t.same(sizes(batches), [16, 16, 16, 16], 'no fifth batch while four run');
  finish[0]!();
  await turn();
  await turn();
  t.same(sizes(batches), [16, 16, 16, 16, 20], 'the waiting ones go together once one batch is done');
  for (const done of finish.slice(1)) done();
  await Promise.all([first, later]);
  t.same(
    admitted.slice(0, 16),
    Array.from({ length: 16 }, (_, i) => i),
    'the first batch in arrival order',
  );
  t.equal(admitted.length, 84);
});

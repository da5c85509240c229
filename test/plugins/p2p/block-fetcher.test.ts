/**
 * The block fetcher with stand-in peers: blocks come out in order whoever served them, a stalled batch goes to
 * another peer, short answers are completed, and no more than the window is fetched ahead of the hand-over.
 */
import t from 'tap';
import { BlockFetcher, type FetchedBatch } from '../../../plugins/p2p/block-fetcher.js';
import type { Peer } from '../../../plugins/p2p/peer.js';

type Answer = (ids: Uint8Array[]) => Promise<Uint8Array[][]> | Uint8Array[][];

/** A stand-in peer: `answer` gets the ids asked for and returns the "blocks" (here the ids themselves). */
function fakePeer(name: string, answer: Answer): Peer & { asked: number[][] } {
  const asked: number[][] = [];
  return {
    asked,
    closed: false,
    toString: () => name,
    violate: () => {},
    async request(_type: string, { ids }: { ids: Uint8Array[] }) {
      asked.push(ids.map((id) => id[0]!));
      const blocks = await answer(ids);
      return { request: 0, blocks: blocks.map((block) => ({ block: block[0]!, txs: [] })) };
    },
  } as unknown as Peer & { asked: number[][] };
}

const idsOf = (count: number): Uint8Array[] => Array.from({ length: count }, (_, i) => Uint8Array.of(i));
const serveAll: Answer = (ids) => ids.map((id) => [id]);
const never: Answer = () => new Promise(() => {});

async function collect(fetcher: BlockFetcher): Promise<{ order: number[]; batches: FetchedBatch[] }> {
  const batches: FetchedBatch[] = [];
  for await (const batch of fetcher.batches()) batches.push(batch);
  return { order: batches.flatMap((b) => b.blocks.map((block) => block.block[0]!)), batches };
}

t.test('batches are spread over the peers and handed over in order', async (t) => {
  const slow = fakePeer('slow', async (ids) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return serveAll(ids);
  });
  const fast = fakePeer('fast', serveAll);
  const fetcher = new BlockFetcher(idsOf(40), () => [slow, fast], { batch: 4, window: 4, dropped: () => {} });
  const { order } = await collect(fetcher);
  t.same(
    order,
    idsOf(40).map((id) => id[0]),
  );
  t.ok(slow.asked.length > 0 && fast.asked.length > slow.asked.length, 'both served, the fast one more');
});

t.test('a stalled request goes to another peer; the staller is reported once and asked no more', async (t) => {
  let release: (() => void) | undefined;
  // The staller's request fails when released, as a timeout would.
  const staller = fakePeer(
    'staller',
    () => new Promise((_, reject) => (release = () => reject(new Error('timed out')))),
  );
  const honest = fakePeer('honest', serveAll);
  const dropped: string[] = [];
  const fetcher = new BlockFetcher(idsOf(12), () => [staller, honest], {
    batch: 4,
    window: 2,
    dropped: (peer, reason, stalled) => dropped.push(`${peer}: ${reason} (${stalled})`),
  });
  setTimeout(() => release!(), 20);
  const { order, batches } = await collect(fetcher);
  t.same(
    order,
    idsOf(12).map((id) => id[0]),
  );
  t.same(dropped, ['staller: timed out (true)']);
  t.equal(staller.asked.length, 1);
  t.ok(
    batches.every((b) => b.peer === honest),
    'every block came from the honest peer',
  );
});

t.test('a short answer leaves the rest queued; an empty one drops the peer without blame', async (t) => {
  const short = fakePeer('short', (ids) => serveAll(ids.slice(0, 1)));
  const fetcher = new BlockFetcher(idsOf(6), () => [short], { batch: 3, window: 2, dropped: () => {} });
  t.same((await collect(fetcher)).order, [0, 1, 2, 3, 4, 5]);

  const empty = fakePeer('empty', () => []);
  const dropped: boolean[] = [];
  const lonely = new BlockFetcher(idsOf(6), () => [empty], {
    batch: 3,
    window: 2,
    dropped: (_peer, _reason, stalled) => dropped.push(stalled),
  });
  await t.rejects(collect(lonely), /no peer serves the 6 missing blocks/);
  t.same(dropped, [false]);
});

t.test('no more than the window is fetched ahead of a stalled first batch', async (t) => {
  const staller = fakePeer('staller', never);
  const others = Array.from({ length: 5 }, (_, i) => fakePeer(`peer${i}`, serveAll));
  const fetcher = new BlockFetcher(idsOf(100), () => [staller, ...others], { batch: 5, window: 3, dropped: () => {} });
  const iterator = fetcher.batches();
  const first = iterator.next();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const asked = [staller, ...others].flatMap((peer) => peer.asked.map((ids) => ids[0]));
  t.same(
    asked.sort((a, b) => a! - b!),
    [0, 5, 10],
    'only the three batches of the window were asked for',
  );
  // The hand-over waits on the staller for good: the test leaves it there.
  void first;
});

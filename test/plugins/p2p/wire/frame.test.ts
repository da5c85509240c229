/** Framing: reassembly across arbitrary chunk boundaries, and refusal of unknown kinds and oversized frames from the header. */
import t from 'tap';
import { encodeFrame, FrameDecoder, FrameError } from '../../../../plugins/p2p/wire/frame.js';

const limits = (kind: number): number | undefined => (kind === 1 ? 10 : kind === 2 ? 1000 : undefined);

t.test('frames come out whole however the stream is cut', async (t) => {
  const stream = Buffer.concat([
    encodeFrame(1, Buffer.from('hello')),
    encodeFrame(2, Buffer.alloc(700, 7)),
    encodeFrame(1, new Uint8Array(0)),
  ]);
  for (const size of [1, 2, 5, 64, stream.length]) {
    const decoder = new FrameDecoder(limits);
    const frames = [];
    for (let at = 0; at < stream.length; at += size) frames.push(...decoder.push(stream.subarray(at, at + size)));
    t.same(
      frames.map((f) => [f.kind, f.body.length]),
      [
        [1, 5],
        [2, 700],
        [1, 0],
      ],
      `chunks of ${size}`,
    );
    t.equal(Buffer.from(frames[0]!.body).toString(), 'hello');
    t.ok(frames[1]!.body.every((b) => b === 7));
  }
});

t.test('an unknown kind or a body over its kind limit is refused from the 5-byte header', async (t) => {
  t.throws(
    () => new FrameDecoder(limits).push(encodeFrame(9, Buffer.from('x'))),
    new FrameError('unknown message kind 9'),
  );
  const header = Buffer.from([0, 0, 0, 11, 1]);
  t.throws(() => new FrameDecoder(limits).push(header), {
    name: 'FrameError',
    message: 'frame of 11 bytes exceeds the 10-byte limit of message kind 1',
  });
  const huge = Buffer.from([0xff, 0xff, 0xff, 0xff, 2]);
  t.throws(
    () => new FrameDecoder(limits).push(huge),
    /exceeds the 1000-byte limit/,
    'a 4 GiB frame is refused before any body arrives',
  );
});

import { readFileSync } from 'node:fs';
import t from 'tap';
import { generateKeyPair, publicKeyOf, secretKeyFromHex } from '../../protocol/keys.js';
import { forEachCore } from '../helpers/core-impls.js';

const V = JSON.parse(readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8')).keys;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

await forEachCore(t, async (t, core) => {
  t.equal(
    hex(publicKeyOf(core, secretKeyFromHex(V.mnemonicKey), 'DERO')),
    V.mnemonicPublic,
    'vector key (≥ n, used mod n)',
  );
  const pair = generateKeyPair(core, 'UMBRA');
  t.equal(pair.secretKey.length, 32);
  t.equal(hex(publicKeyOf(core, pair.secretKey, 'UMBRA')), hex(pair.publicKey));
  t.not(hex(publicKeyOf(core, pair.secretKey, 'DERO')), hex(pair.publicKey), 'the domain matters');
  t.throws(() => publicKeyOf(core, new Uint8Array(32), 'UMBRA'), /zero/);
  t.throws(() => publicKeyOf(core, new Uint8Array(31), 'UMBRA'), /32 bytes/);
  t.throws(() => secretKeyFromHex('xyz'), /64 hex/);
});

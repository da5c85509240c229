import t from 'tap';
import { mnemonicToSecretKey, newMnemonic, secretKeyToMnemonic } from '../../protocol/mnemonic.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// BIP-39 reference vectors (256-bit entropy).
const VECTORS: [string, string][] = [
  ['00'.repeat(32), `${'abandon '.repeat(23)}art`],
  [
    '7f'.repeat(32),
    'legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title',
  ],
  ['ff'.repeat(32), `${'zoo '.repeat(23)}vote`],
];

t.test('BIP-39 vectors: the entropy is the secret key', async (t) => {
  for (const [key, words] of VECTORS) {
    t.equal(secretKeyToMnemonic(Uint8Array.from(Buffer.from(key, 'hex'))), words);
    t.equal(hex(mnemonicToSecretKey(words)), key);
  }
  t.equal(
    hex(mnemonicToSecretKey(`  ${VECTORS[2]![1].toUpperCase().replace(/ /g, '\n ')} `)),
    'ff'.repeat(32),
    'case and whitespace are forgiven',
  );
});

t.test('fresh mnemonics round trip', async (t) => {
  const words = newMnemonic();
  t.equal(words.split(' ').length, 24);
  t.equal(secretKeyToMnemonic(mnemonicToSecretKey(words)), words);
  t.not(newMnemonic(), words);
});

t.test('clear errors', async (t) => {
  t.throws(() => mnemonicToSecretKey('abandon abandon'), {
    name: 'MnemonicError',
    message: 'a mnemonic has 24 words, got 2',
  });
  t.throws(
    () => mnemonicToSecretKey(`${'abandon '.repeat(23)}umbra`),
    /not in the BIP-39 English word list: 'umbra' \(word 24\)/,
  );
  t.throws(() => mnemonicToSecretKey(`${'abandon '.repeat(23)}zoo`), /checksum/);
  t.throws(() => mnemonicToSecretKey(`${'abandon '.repeat(11)}about`), /24 words, got 12/);
  t.throws(() => secretKeyToMnemonic(new Uint8Array(16)), /32 bytes/);
});

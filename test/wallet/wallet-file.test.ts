/** The encrypted wallet file: round trip, wrong password, damaged files, and writes that never lose the original. */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DEFAULT_SCRYPT, WalletFile, WalletFileError, WalletFileErrorCode } from '../../wallet/wallet-file.js';

const FAST = { N: 1024, r: 8, p: 1 };
const freshDir = (): string => mkdtempSync(join(tmpdir(), 'umbra-wallet-file-'));

t.test('contents survive a round trip, and only the password opens them', async (t) => {
  const path = join(freshDir(), 'w.json');
  const contents = { network: 'testnet', secret_key: 'ab'.repeat(32), words: ['é', '✓'] };
  const created = await WalletFile.create(path, 'correct horse', contents);
  t.same(created.contents, contents);
  const text = readFileSync(path, 'utf8');
  t.notOk(text.includes(contents.secret_key), 'the secret is not in the file in clear');
  const container = JSON.parse(text);
  t.match(container, { format: 'umbra-wallet', version: 1, kdf: { name: 'scrypt', ...DEFAULT_SCRYPT } });
  t.same((await WalletFile.open(path, 'correct horse')).contents, contents);
  await t.rejects(
    WalletFile.open(path, 'wrong horse'),
    new WalletFileError(
      WalletFileErrorCode.BadPassword,
      `wrong password for wallet file ${path} (or the file was altered)`,
    ),
  );
  await t.rejects(WalletFile.open(path, ''), /wrong password/);
  await t.rejects(
    WalletFile.open(path, 'wrong horse'),
    { code: WalletFileErrorCode.BadPassword },
    'recognised by its code',
  );
  t.equal(statSync(path).mode & 0o777, 0o600, 'only the owner may read it');
});

t.test('save replaces the contents under the same password with a fresh nonce', async (t) => {
  const path = join(freshDir(), 'w.json');
  const file = await WalletFile.create(path, 'pw', { n: 1 }, FAST);
  const before = JSON.parse(readFileSync(path, 'utf8'));
  file.save({ n: 2, sync: { height: 10 } });
  const after = JSON.parse(readFileSync(path, 'utf8'));
  t.equal(after.kdf.salt, before.kdf.salt, 'same key derivation');
  t.not(after.nonce, before.nonce, 'never the same nonce twice');
  t.same(file.contents, { n: 2, sync: { height: 10 } });
  t.same((await WalletFile.open(path, 'pw')).contents, { n: 2, sync: { height: 10 } });
});

t.test('integers beyond 2^53 (uint64 arguments in the history) are kept exactly', async (t) => {
  const path = join(freshDir(), 'w.json');
  const file = await WalletFile.create(path, 'pw', { n: 1 }, FAST);
  const contents = { payload_rpc: [{ name: 'V', datatype: 'U', value: 2n ** 64n - 1n }], safe: 2 ** 53 - 1 };
  file.save(contents);
  t.strictSame((await WalletFile.open(path, 'pw')).contents, contents);
});

t.test('a new wallet never replaces an existing file', async (t) => {
  const path = join(freshDir(), 'w.json');
  writeFileSync(path, 'precious');
  await t.rejects(
    WalletFile.create(path, 'pw', {}, FAST),
    new WalletFileError(WalletFileErrorCode.Exists, `${path} already exists; a new wallet never replaces a file`),
  );
  t.equal(readFileSync(path, 'utf8'), 'precious');
  t.same(readdirSync(join(path, '..')), ['w.json'], 'no temporary file left behind');
});

t.test('missing and damaged files are clear errors and stay untouched', async (t) => {
  const dir = freshDir();
  await t.rejects(WalletFile.open(join(dir, 'nope.json'), 'pw'), /wallet file .*nope\.json does not exist/);
  await t.rejects(WalletFile.open(join(dir, 'nope.json'), 'pw'), { code: WalletFileErrorCode.Missing });
  const path = join(dir, 'w.json');
  await WalletFile.create(path, 'pw', { keep: true }, FAST);
  const good = readFileSync(path, 'utf8');
  const container = JSON.parse(good);
  const damaged: [string, string, RegExp][] = [
    ['truncated', good.slice(0, good.length / 2), /damaged or not a wallet file: it is not JSON/],
    ['empty', '', /it is not JSON/],
    ['another format', JSON.stringify({ hello: 1 }), /it is not an umbra-wallet file/],
    ['a future version', JSON.stringify({ ...container, version: 2 }), /version 2 is not supported/],
    [
      'an absurd scrypt cost',
      JSON.stringify({ ...container, kdf: { ...container.kdf, N: 1 << 30 } }),
      /'kdf.N' must be a power of two/,
    ],
    [
      'scrypt asking for 4 GiB (N = 2^20, r = 32)',
      JSON.stringify({ ...container, kdf: { ...container.kdf, N: 1 << 20, r: 32 } }),
      /'kdf' asks for N·r·p = 33554432, more than 2097152 \(8 times what Umbra's files use: at most 256 MiB of memory\)/,
    ],
    [
      'scrypt with p = 16',
      JSON.stringify({ ...container, kdf: { ...container.kdf, p: 16 } }),
      /'kdf.r' must be 1 … 32 and 'kdf.p' 1 … 2/,
    ],
    ['a short nonce', JSON.stringify({ ...container, nonce: 'abcd' }), /'nonce' must be 24 bytes/],
    ['bad base64', JSON.stringify({ ...container, ciphertext: '%%%' }), /'ciphertext' must be base64/],
  ];
  for (const [what, text, message] of damaged) {
    writeFileSync(path, text);
    const started = performance.now();
    await t.rejects(WalletFile.open(path, 'pw'), message, what);
    t.ok(performance.now() - started < 1000, `${what}: refused before any key derivation`);
    await t.rejects(
      WalletFile.open(path, 'pw'),
      { code: WalletFileErrorCode.Damaged },
      `${what}: recognised by its code`,
    );
    t.equal(readFileSync(path, 'utf8'), text, `${what}: the file is left as it was`);
  }
  const bytes = Buffer.from(container.ciphertext, 'base64');
  bytes[5]! ^= 1;
  writeFileSync(path, JSON.stringify({ ...container, ciphertext: bytes.toString('base64') }));
  await t.rejects(
    WalletFile.open(path, 'pw'),
    /wrong password .*or the file was altered/,
    'a flipped ciphertext bit is caught',
  );
});

t.test('scrypt exactly at the bound opens; one step past it is refused before any derivation', async (t) => {
  const path = join(freshDir(), 'w.json');
  // N·r·p = 2^21, the bound, with p = 2: the work of N = 2^18, r = 8 with half its memory (128 MiB).
  await WalletFile.create(path, 'pw', { at: 'bound' }, { N: 1 << 17, r: 8, p: 2 });
  t.same((await WalletFile.open(path, 'pw')).contents, { at: 'bound' }, 'the most a file may ask for is granted');
  const container = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...container, kdf: { ...container.kdf, N: 1 << 18 } }));
  const started = performance.now();
  await t.rejects(WalletFile.open(path, 'pw'), {
    code: WalletFileErrorCode.Damaged,
    message: /'kdf' asks for N·r·p = 4194304, more than 2097152/,
  });
  t.ok(performance.now() - started < 1000, 'refused without deriving a key (a derivation at that size takes seconds)');
});

t.test('a failed save keeps the original, and leftovers of a crashed save are ignored', async (t) => {
  const dir = freshDir();
  const path = join(dir, 'w.json');
  const file = await WalletFile.create(path, 'pw', { balance: 1 }, FAST);
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;
  t.throws(() => file.save({ balance: circular }), TypeError, 'contents that cannot be written');
  t.same(file.contents, { balance: 1 }, 'the open file keeps its contents');
  t.same((await WalletFile.open(path, 'pw')).contents, { balance: 1 }, 'and so does the file on disk');
  writeFileSync(join(dir, '.w.json.0123456789ab.tmp'), '{"half written');
  file.save({ balance: 3 });
  t.same((await WalletFile.open(path, 'pw')).contents, { balance: 3 }, 'a stale temporary file changes nothing');
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o500);
    t.teardown(() => chmodSync(dir, 0o700));
    t.throws(
      () => file.save({ balance: 4 }),
      /cannot write wallet file .*EACCES/,
      'an unwritable directory is a clear error',
    );
    t.same((await WalletFile.open(path, 'pw')).contents, { balance: 3 });
  }
});

t.test('a file that could not be opened again is never created', async (t) => {
  const path = join(freshDir(), 'w.json');
  await t.rejects(
    WalletFile.create(path, 'pw', {}, { N: 1 << 18, r: 8, p: 2 }),
    /cannot create a wallet file with these scrypt parameters: 'kdf' asks for N·r·p = 4194304, more than 2097152/,
  );
  t.notOk(existsSync(path), 'nothing was written');
});

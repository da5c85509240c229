/** Secrets from files and from a terminal without echo. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { promptSecret, readSecretFile, type SecretTerminal } from '../../cli/secret-input.js';

/** A terminal double: typed input, everything written to the screen, and the raw-mode switches. */
function fakeTerminal(isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY, rawModes: [] as boolean[] });
  Object.assign(input, { setRawMode: (mode: boolean) => input.rawModes.push(mode) });
  let screen = '';
  const output = new PassThrough();
  output.on('data', (d) => (screen += d));
  return { terminal: { input, output } as unknown as SecretTerminal, input, screen: () => screen };
}

t.test('a file holds the secret; its final line end is not part of it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-secret-'));
  writeFileSync(join(dir, 'a'), ' pass word \r\n');
  writeFileSync(join(dir, 'b'), 'two\nlines\n\n');
  t.equal(readSecretFile(join(dir, 'a'), 'password'), ' pass word ');
  t.equal(readSecretFile(join(dir, 'b'), 'password'), 'two\nlines\n');
  t.throws(() => readSecretFile(join(dir, 'c'), 'password'), /cannot read the password file .*c: ENOENT/);
});

t.test('typed secrets are not echoed; backspace edits, Enter ends, Ctrl-C cancels', async (t) => {
  const typed = fakeTerminal();
  const answer = promptSecret('Wallet password', '--password-file', typed.terminal);
  typed.input.write('sekret');
  typed.input.write('\u007fT\r');
  t.equal(await answer, 'sekreT');
  t.equal(typed.screen(), 'Wallet password: \n', 'only the question and a line end reach the screen');
  t.same(typed.input.rawModes, [true, false], 'raw mode is switched off again');

  const cancelled = fakeTerminal();
  const refused = promptSecret('Wallet password', '--password-file', cancelled.terminal);
  cancelled.input.write('abc\u0003');
  await t.rejects(refused, /cancelled/);
  t.same(cancelled.input.rawModes, [true, false]);

  await t.rejects(
    promptSecret('Wallet password', '--password-file', fakeTerminal(false).terminal),
    /no terminal to ask for the wallet password on: give --password-file/,
  );
});

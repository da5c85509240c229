/**
 * Passwords typed on a terminal, through the real CLI in a pseudo-terminal: `wallet create` asks again when the two
 * passwords differ, and a wallet command asks again after a wrong password — three tries each, then a clear failure.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startPtyCli, type PtyCli } from '../../helpers/pty.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-wallet-passwords-'));
const env = { HOME: dir };
const file = join(dir, 'typed.wallet');
const fileFlags = ['--wallet-file', file, '--network', 'simulator'];

/** The CLI in a terminal, and `answer`: waits for the next `question` (after the last one answered), types a line. */
function start(args: string[]): PtyCli & { answer(question: RegExp, typed: string): Promise<void> } {
  const cli = startPtyCli(['wallet', ...args], env);
  t.teardown(() => cli.kill());
  let cursor = 0;
  return Object.assign(cli, {
    async answer(question: RegExp, typed: string) {
      const match = await cli.waitFor(question, cursor, 60_000);
      cursor += match.index! + match[0].length;
      await cli.type(`${typed}\r`);
    },
  });
}

t.test('create: two passwords that differ are asked again; three times is a failure', async (t) => {
  const create = start(['create', ...fileFlags]);
  await create.answer(/Wallet password: /, 'one');
  await create.answer(/Repeat the password: /, 'two');
  await create.waitFor(/^the two passwords differ; try again \(2 tries left\)$/m, 0, 60_000);
  await create.answer(/Wallet password: /, 'pw');
  await create.answer(/Repeat the password: /, 'pw');
  await create.waitFor(/^address: +umbt1/m, 0, 60_000);
  t.equal(await create.exited, 0, create.screen());

  const failed = start(['create', '--wallet-file', join(dir, 'never.wallet')]);
  for (const tries of ['2 tries', '1 try', undefined]) {
    await failed.answer(/Wallet password: /, 'a');
    await failed.answer(/Repeat the password: /, 'b');
    if (tries) await failed.waitFor(new RegExp(`try again \\(${tries} left\\)\\n`), 0, 60_000);
  }
  t.equal(await failed.exited, 1);
  t.match(failed.screen(), /^umbra: the two passwords differ \(3 tries\)$/m);
});

t.test('a wrong password is asked again; the right one opens the wallet; three wrong ones fail', async (t) => {
  const opened = start(['address', ...fileFlags]);
  await opened.answer(/Wallet password: /, 'wrong');
  await opened.waitFor(
    /^wrong password for wallet file .*typed\.wallet \(or the file was altered\); try again \(2 tries left\)$/m,
    0,
    60_000,
  );
  await opened.answer(/Wallet password: /, 'pw');
  await opened.waitFor(/^umbt1[a-z0-9]+$/m, 0, 60_000);
  t.equal(await opened.exited, 0, opened.screen());

  const refused = start(['address', ...fileFlags]);
  for (let i = 0; i < 3; i++) await refused.answer(/Wallet password: /, `wrong${i}`);
  t.equal(await refused.exited, 1);
  t.match(refused.screen(), /^umbra: wrong password for wallet file .*typed\.wallet \(or the file was altered\)$/m);
  t.notMatch(refused.screen(), /\n\s+at /, 'no stack trace');
});

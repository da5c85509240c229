/** The wallet shell's word splitting: blanks, both quotes, backslashes, and the lines it refuses. */
import t from 'tap';
import { splitShellLine } from '../../../cli/wallet/shell-line.js';

t.test('blanks separate words, however many', async (t) => {
  t.same(splitShellLine('send  umbs1abc\t0.5 --yes'), ['send', 'umbs1abc', '0.5', '--yes']);
  t.same(splitShellLine('   '), []);
  t.same(splitShellLine(''), []);
  t.same(splitShellLine('  balance  '), ['balance']);
});

t.test('single quotes keep everything literally', async (t) => {
  t.same(splitShellLine(`call X Set 'name:S=a b  c'`), ['call', 'X', 'Set', 'name:S=a b  c']);
  t.same(splitShellLine(`'a\\b"c'`), ['a\\b"c']);
  t.same(splitShellLine(`pre'mid dle'post`), ['premid dlepost'], 'quotes join with the text around them');
});

t.test('double quotes keep blanks; a backslash escapes only \\ " $ and `', async (t) => {
  t.same(splitShellLine(`"a b" "say \\"hi\\"" "back\\\\slash" "\\n"`), ['a b', 'say "hi"', 'back\\slash', '\\n']);
  t.same(splitShellLine(`"it's"`), ["it's"]);
});

t.test('empty quotes are an empty word', async (t) => {
  t.same(splitShellLine(`send '' 1`), ['send', '', '1']);
  t.same(splitShellLine(`""`), ['']);
});

t.test('outside quotes a backslash keeps the next character', async (t) => {
  t.same(splitShellLine("a\\ b c\\'d \\\\"), ['a b', "c'd", '\\']);
});

t.test('an unterminated quote or a final backslash is a clear error', async (t) => {
  t.throws(() => splitShellLine(`send 'abc`), {
    name: 'CliError',
    code: 'cli.bad-argument',
    message: "unterminated ' quote",
  });
  t.throws(() => splitShellLine('say "abc'), { code: 'cli.bad-argument', message: 'unterminated " quote' });
  t.throws(() => splitShellLine('abc\\'), {
    code: 'cli.bad-argument',
    message: 'the line ends with a backslash: nothing to escape',
  });
});

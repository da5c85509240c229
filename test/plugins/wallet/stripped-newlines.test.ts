import t from 'tap';
import { newlinesWereStripped } from '../../../plugins/wallet/stripped-newlines.js';

const SOURCE = `Function Initialize() Uint64
10 STORE("owner", SIGNER())
20 RETURN 0
End Function

Function Keep(n Uint64) Uint64
10 RETURN 0
End Function
`;

t.test('a source with its newlines stripped is recognised', async (t) => {
  t.ok(newlinesWereStripped(SOURCE.replaceAll('\n', '')), 'lines joined directly, as curl -d sends them');
  t.ok(newlinesWereStripped(SOURCE.replaceAll('\n', ' ')), 'lines joined with spaces');
  t.ok(newlinesWereStripped('Function Initialize() Uint64 10 RETURN 0'), 'a line number after other text');
  t.ok(newlinesWereStripped('function a() uint64function b() uint64'), 'Function twice, in any case');
});

t.test('anything else is left to the compiler', async (t) => {
  t.notOk(newlinesWereStripped(SOURCE), 'a source with its newlines');
  t.notOk(newlinesWereStripped(SOURCE.replaceAll('\n', '\r\n')), 'CRLF line ends');
  t.notOk(newlinesWereStripped('Function Initialize() Uint64'), 'one line of one function');
  t.notOk(newlinesWereStripped('hello'), 'not BASIC at all');
});

/** What the install (compile) step rejects, each with the function and line named (docs/contracts.md § The language). */
import t from 'tap';
import { dvm } from '../../helpers/dvm.js';

const wrap = (body: string, header = 'Function F() Uint64') => `${header}\n${body}\nEnd Function\n`;

t.test('structure errors', async (t) => {
  const { run } = await dvm();
  const cases: [string, RegExp, number][] = [
    ['hello', /expected a function declaration/, 1],
    ['Function', /needs a name/, 1],
    ['Function 1F() Uint64\n10 RETURN 0\nEnd Function', /must start with a letter/, 1],
    ['Function F a Uint64)\n10 RETURN 0\nEnd Function', /expected \( after the function name F/, 1],
    ['Function F(\n10 RETURN 0\nEnd Function', /not closed with \)/, 1],
    ['Function F(a Strin) Uint64\n10 RETURN 0\nEnd Function', /parameter a of F needs a type/, 1],
    ['Function F(a Uint64, a String) Uint64\n10 RETURN 0\nEnd Function', /declared twice/, 1],
    ['Function F() Stream\n10 RETURN 0\nEnd Function', /return type of F must be Uint64 or String/, 1],
    ['Function F() Uint64 junk\n10 RETURN 0\nEnd Function', /unexpected "junk"/, 1],
    [wrap('10 RETURN 0\nFunction G() Uint64'), /not closed with End Function/, 3],
    [wrap('RETURN 0'), /must start with a decimal line number/, 2],
    [wrap('0x10 RETURN 0'), /decimal line number/, 2],
    [wrap('0 RETURN 0'), /reserved/, 2],
    [wrap('18446744073709551615 RETURN 0'), /reserved/, 2],
    [wrap('20 RETURN 0\n10 RETURN 1'), /must be greater than the previous line 20/, 3],
    [wrap('10 RETURN 0\n10 RETURN 1'), /appears twice/, 3],
    [wrap('10 RETURN 0\nEnd'), /expected End Function/, 3],
    ['Function F() Uint64\n10 RETURN 0', /has no End Function/, 1],
    [wrap('10 RETURN 0') + wrap('10 RETURN 1'), /F is defined twice/, 4],
    [wrap(''), /has no lines/, 1],
    [wrap('10 RETURN "abc'), /unterminated string/, 2],
    [wrap('10 RETURN "\\q"'), /unknown escape/, 2],
    ['/* never closed\n' + wrap('10 RETURN 0'), /unterminated \/\* comment/, 1],
  ];
  for (const [code, message, line] of cases) {
    const r = run({ code, entrypoint: 'F' });
    t.equal(r.error?.phase, 'install', JSON.stringify(code));
    t.match(r.error?.message, message, JSON.stringify(code));
    t.equal(r.error?.line, line, `${JSON.stringify(code)} at source line ${line}`);
  }
});

t.test('statement errors are found at install, not when the line first runs', async (t) => {
  const { run } = await dvm();
  const cases: [string, RegExp][] = [
    ['10 RETURN x', /x is not declared/],
    ['10 LET x = 1\n20 RETURN 0', /LET: x is not declared/],
    ['10 GOTO 99', /there is no line 99 in F/],
    ['10 IF 1 THEN GOTO 20 ELSE GOTO 99\n20 RETURN 0', /there is no line 99/],
    ['10 IF 1 THEN 20\n20 RETURN 0', /IF needs/],
    ['10 IF THEN GOTO 10', /IF needs/],
    ['10 GOTO', /GOTO needs exactly one line number/],
    ['10 DIM x\n20 RETURN 0', /DIM needs/],
    ['10 DIM x AS Float\n20 RETURN 0', /DIM needs/],
    ['10 DIM x AS Uint64\n20 LET x == 1\n30 RETURN 0', /LET needs/],
    ['10 RETURN -1', /unary - is not supported/],
    ['10 RETURN 1.5', /fractional number/],
    ['10 RETURN 18446744073709551616', /does not fit in 64 bits/],
    ['10 RETURN (1 + 2', /expected \)/],
    ['10 RETURN 1 2', /unexpected "2" after the expression/],
    ['10 RETURN STRLEN("a", "b")', /STRLEN takes 1 argument, got 2/],
    ['10 RETURN RANDOM(1, 2)', /RANDOM takes 0 or 1 arguments, got 2/],
    ['10 RETURN nosuch(1)', /unknown function nosuch/],
    ['10 2 + 3\n20 RETURN 0', /not a statement/],
    ['10 RETURN', /returns a Uint64: RETURN needs a value/],
    ['10 RETURN ' + '('.repeat(100) + '1' + ')'.repeat(100), /nested deeper than 64/],
  ];
  for (const [body, message] of cases) {
    const r = run({ code: wrap(body), entrypoint: 'F' });
    t.equal(r.error?.phase, 'install', body);
    t.match(r.error?.message, message, body);
    t.match(r.error?.message, /^F line \d+: /, 'names the function and line');
  }
  const voidReturn = run({ code: wrap('10 RETURN 1', 'Function F()'), entrypoint: 'F' });
  t.match(voidReturn.error?.message, /F has no return type: RETURN takes no value/);
});

t.test('a contract is compiled once and reused', async (t) => {
  const { vm } = await dvm();
  const code = wrap('10 RETURN 0');
  t.equal(vm.compile(code), vm.compile(code));
});

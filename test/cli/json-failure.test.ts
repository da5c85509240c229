import { Command, CommanderError } from 'commander';
import t from 'tap';
import {
  AnsweredFailure,
  answeringFailuresAsJson,
  answerUsageError,
  throwingUsageErrors,
  wantsJson,
} from '../../cli/json-failure.js';
import { UmbraError } from '../../core-native/ts/errors.js';

const refused = new UmbraError('test.refused', 'refused for a reason');

t.test('with --json an UmbraError is answered as one JSON document', async (t) => {
  let out = '';
  const answered = answeringFailuresAsJson(
    true,
    (text) => (out += text),
    async () => {
      throw refused;
    },
  );
  await t.rejects(answered, AnsweredFailure);
  await answered.catch((error: Error) => t.equal(error.cause, refused, 'the failure keeps its cause'));
  t.same(JSON.parse(out), { ok: false, error: { code: 'test.refused', message: 'refused for a reason' } });
});

t.test('other failures, and any failure without --json, pass through unchanged', async (t) => {
  let out = '';
  const write = (text: string) => (out += text);
  await t.rejects(
    answeringFailuresAsJson(false, write, async () => {
      throw refused;
    }),
    refused,
  );
  const unexpected = new Error('disk on fire');
  await t.rejects(
    answeringFailuresAsJson(true, write, async () => {
      throw unexpected;
    }),
    unexpected,
  );
  t.equal(out, '', 'nothing written');
});

t.test(
  'usage errors: every subcommand throws instead of exiting; under --json they are answered as JSON',
  async (t) => {
    t.equal(wantsJson(['wallet', 'balance', '--json']), true);
    t.equal(wantsJson(['wallet', 'balance']), false);
    let stderr = '';
    const program = new Command('umbra').configureOutput({ writeErr: (text) => (stderr += text) });
    program.addCommand(new Command('sub').option('--json').action(() => undefined));
    throwingUsageErrors(program, true);
    const failure = await program.parseAsync(['sub', '--json', '--bogus'], { from: 'user' }).catch((e: unknown) => e);
    t.type(failure, CommanderError);
    t.equal(stderr, '', 'nothing on stderr under --json');
    let out = '';
    answerUsageError(failure as CommanderError, (text) => (out += text));
    t.same(JSON.parse(out), { ok: false, error: { code: 'cli.usage', message: "unknown option '--bogus'" } });
    out = '';
    answerUsageError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), (text) => (out += text));
    t.equal(out, '', 'help is not an error');
  },
);

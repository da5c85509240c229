/**
 * Keeps docs/rpc.md true as a reader uses it: every example runs, in page order, against a real `bin/umbra simulator`
 * (its documented ports mapped onto the free ones the test got), with `<field from method>` placeholders filled from
 * earlier answers, and each answer must match the one printed under the command.
 */
import t from 'tap';
import { runCurl } from './curl.js';
import { answerKey, fillPlaceholders, shapeMismatch, shellExamples } from './shell-examples.js';
import { startDocsSimulator } from './simulator.js';

const examples = shellExamples('docs/rpc.md');
t.ok(examples.length >= 30, `docs/rpc.md has examples (${examples.length})`);
t.same(
  examples.filter((example) => !example.command.startsWith('curl ') || example.answer === undefined),
  [],
  'every example is a curl command with its answer under it',
);

const sim = await startDocsSimulator(2);
t.teardown(() => sim.cli.child.kill('SIGKILL'));

/** The last result of each method, for the placeholders of later examples. */
const answers = new Map<string, Record<string, unknown>>();

for (const example of examples) {
  // Subtests run one after another, so each sees the answers and the chain the examples before it left.
  t.test(example.command.slice(0, 140), async (t) => {
    const { method, status, body } = await runCurl(fillPlaceholders(example.command, answers), sim.baseUrl);
    t.equal(status, 200, body);
    const actual = JSON.parse(body) as { result?: Record<string, unknown> };
    t.notOk(
      shapeMismatch(actual, JSON.parse(example.answer!)),
      `${method} answers as documented: ${body.slice(0, 400)}`,
    );
    answers.set(answerKey(method), (method === 'install_sc' ? actual : actual.result) as Record<string, unknown>);
    await sim.settled();
  });
}

t.test('stop', async (t) => {
  sim.cli.child.kill('SIGINT');
  t.equal(await sim.cli.exited, 0);
});

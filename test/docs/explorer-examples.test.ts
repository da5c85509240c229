/**
 * Keeps docs/explorer.md true: every `curl` of the page runs against a real `bin/umbra simulator` (the documented
 * port mapped onto the one the test got), and each answer must match the one printed under the command.
 */
import t from 'tap';
import { shapeMismatch, shellExamples } from './shell-examples.js';
import { startDocsSimulator } from './simulator.js';

const examples = shellExamples('docs/explorer.md');
t.ok(examples.length >= 4, `docs/explorer.md has examples (${examples.length})`);

const sim = await startDocsSimulator(2);
t.teardown(() => sim.cli.child.kill('SIGKILL'));

for (const example of examples) {
  t.test(example.command, async (t) => {
    const url = /^curl -s '(http:\/\/127\.0\.0\.1:(\d+)(\/\S*))'$/.exec(example.command);
    t.ok(url, 'a plain GET of a simulator URL');
    t.ok(example.answer, 'with its answer under it');
    if (!url || !example.answer) return;
    const response = await fetch(`${sim.baseUrl(Number(url[2]))}${url[3]}`);
    const body = await response.text();
    t.match(response.headers.get('content-type'), /^application\/json/);
    t.notOk(
      shapeMismatch(JSON.parse(body), JSON.parse(example.answer)),
      `answers as documented: ${body.slice(0, 400)}`,
    );
  });
}

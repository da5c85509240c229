import t from 'tap';
import { AnsweredFailure, answeringFailuresAsJson } from '../../../host/cli/json-failure.js';
import { UmbraError } from '../../../host/errors.js';

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
  t.same(JSON.parse(out), { error: { code: 'test.refused', message: 'refused for a reason' } });
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

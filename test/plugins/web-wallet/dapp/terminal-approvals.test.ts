/**
 * Terminal approvals through piped streams: a request is shown with its summary, details and trial, answered with y
 * (carried out) or with Enter (the default: denied); a request answered elsewhere while shown is no longer asked about.
 */
import { PassThrough } from 'node:stream';
import t from 'tap';
import type { DappPermission } from '../../../../plugins/web-wallet/dapp/approvals.js';
import type { PlannedRequest } from '../../../../plugins/web-wallet/dapp/dapp-actions.js';
import { DappErrorCode } from '../../../../plugins/web-wallet/dapp/dapp-error.js';
import { type Answer, DappRequests } from '../../../../plugins/web-wallet/dapp/dapp-requests.js';
import { approveOnTerminal } from '../../../../plugins/web-wallet/dapp/terminal-approvals.js';

const APP = { origin: 'https://lottery.example', name: 'Lottery' };

/** A terminal of pipes: what was written to it so far, and keys to type. */
function pipedTerminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const shows = async (pattern: RegExp): Promise<void> => {
    while (!pattern.test(text)) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { input, output, shows, type: (keys: string) => input.write(keys), text: () => text };
}

/** The requests, with a store in memory, and each app answer received. */
function approvalsWithAnswers() {
  let stored: readonly DappPermission[] = [];
  const requests = new DappRequests({
    permissions: { load: () => [...stored], save: (permissions) => (stored = permissions) },
    timeoutMs: 60_000,
    maxPendingPerOrigin: 4,
    onRevoke: () => {},
  });
  const answers: Parameters<Answer>[0][] = [];
  const done: string[] = [];
  const ask = (summary: string): void =>
    requests.ask(
      APP,
      {
        kind: 'call',
        summary,
        details: { entrypoint: 'Lottery' },
        trial: { ok: true, message: 'would succeed on the latest state', gas: '1200 compute, 0 storage' },
        carryOut: async () => {
          done.push(summary);
          return { txid: 'ab' };
        },
      } satisfies PlannedRequest,
      {},
      (outcome) => answers.push(outcome),
    );
  return { requests, answers, done, ask };
}

t.test('approve with y, deny with the default', async (t) => {
  const terminal = pipedTerminal();
  const { requests, answers, done, ask } = approvalsWithAnswers();
  const stop = approveOnTerminal(requests, terminal);
  t.teardown(stop);

  ask('call Lottery of contract aa');
  await terminal.shows(/Approve\?/);
  t.match(terminal.text(), '"Lottery" at https://lottery.example asks to call Lottery of contract aa');
  t.match(terminal.text(), '  entrypoint: Lottery');
  t.match(terminal.text(), '  trial run: would succeed on the latest state (gas 1200 compute, 0 storage)');
  terminal.type('y\n');
  await terminal.shows(/approved\n/);
  t.same(done, ['call Lottery of contract aa'], 'carried out');
  t.same(answers, [{ result: { txid: 'ab' } }], 'the app has its answer');

  ask('call Withdraw of contract aa');
  await terminal.shows(/Withdraw[\s\S]*Approve\?/);
  terminal.type('\n');
  await terminal.shows(/denied\n/);
  t.same(done, ['call Lottery of contract aa'], 'nothing more carried out');
  t.equal((answers[1] as { error: { rpcCode: number } }).error.rpcCode, DappErrorCode.Denied);
  t.same(requests.pending(), []);
});

t.test('a request answered elsewhere while shown is no longer asked about', async (t) => {
  const terminal = pipedTerminal();
  const { requests, answers, ask } = approvalsWithAnswers();
  const stop = approveOnTerminal(requests, terminal);
  t.teardown(stop);
  ask('sign the message "hi"');
  await terminal.shows(/Approve\?/);
  requests.deny(requests.pending()[0]!.id);
  await terminal.shows(/no longer waiting \(answered elsewhere or expired\)/);
  t.equal(answers.length, 1, 'answered once, by the page');
  ask('sign the message "again"');
  await terminal.shows(/again[\s\S]*Approve\?/);
  terminal.type('y\n');
  await terminal.shows(/approved\n/);
  t.equal(answers.length, 2);
});

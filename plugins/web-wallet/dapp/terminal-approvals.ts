/**
 * Approvals on the terminal running `umbra wallet web`, for when no web wallet page is open: each request web apps
 * send is shown, one at a time, with what approving does, and the person answers approve or deny. A request answered
 * elsewhere (the page) or expired while shown stops being asked about. The streams are the caller's, so that the
 * terminal can be any pair (and a test's pipes).
 */
import { PassThrough } from 'node:stream';
import { confirm } from '@inquirer/prompts';
import type { DappApprovals, DappRequest } from './approvals.js';

export interface TerminalStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** The request as the terminal shows it: who asks, the summary, its details, and a call's trial run. */
function describeRequest(request: DappRequest): string {
  const lines = [
    `${JSON.stringify(request.name)} at ${request.origin} asks to ${request.summary}`,
    ...Object.entries(request.details).map(([key, value]) => `  ${key}: ${value}`),
  ];
  if (request.trial)
    lines.push(
      `  trial run: ${request.trial.message}${request.trial.gas === undefined ? '' : ` (gas ${request.trial.gas})`}`,
    );
  return `${lines.join('\n')}\n`;
}

/** Asks about each request `approvals` receives until the returned function is called. */
export function approveOnTerminal(approvals: DappApprovals, streams: TerminalStreams): () => void {
  const asked = new Set<string>();
  let shown: { id: string; abort: AbortController; answered: boolean } | undefined;
  let stopped = false;
  const say = (line: string): void => {
    streams.output.write(`${line}\n`);
  };

  const askNext = async (): Promise<void> => {
    if (shown || stopped) return;
    const request = approvals.pending().find(({ id }) => !asked.has(id));
    if (!request) return;
    asked.add(request.id);
    const current = { id: request.id, abort: new AbortController(), answered: false };
    shown = current;
    streams.output.write(describeRequest(request));
    // The prompt ends the stream it writes to when it is done: it gets its own, which leaves the terminal open.
    const promptOutput = new PassThrough();
    promptOutput.pipe(streams.output, { end: false });
    let approve: boolean | undefined;
    try {
      approve = await confirm(
        { message: 'Approve?', default: false },
        { input: streams.input, output: promptOutput, signal: current.abort.signal },
      );
    } catch {
      // Aborted: answered on the page, expired, or the terminal approvals stopped.
    }
    promptOutput.unpipe(streams.output);
    current.answered = true;
    if (approve === undefined) say('no longer waiting (answered elsewhere or expired)');
    else if (approve)
      await approvals.approve(request.id).then(
        () => say('approved'),
        (error: unknown) => say(`approved, but it failed: ${(error as Error).message}`),
      );
    else {
      try {
        approvals.deny(request.id);
        say('denied');
      } catch {
        say('no longer waiting (answered elsewhere or expired)');
      }
    }
    shown = undefined;
    void askNext();
  };

  const unsubscribe = approvals.onChange(() => {
    if (shown && !shown.answered && !approvals.pending().some(({ id }) => id === shown?.id)) shown.abort.abort();
    void askNext();
  });
  void askNext();
  return () => {
    stopped = true;
    unsubscribe();
    shown?.abort.abort();
  };
}

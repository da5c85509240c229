/**
 * The requests web apps wait on and the origins the user let in (the DappApprovals the web wallet's page and the
 * terminal answer). A request waits until approved, denied or expired, and is answered exactly once; an origin may
 * keep only a few waiting. Permissions are written to their store at each change, so they outlive the process.
 */
import { randomUUID } from 'node:crypto';
import type { DappApprovals, DappPermission, DappRequest } from './approvals.js';
import { asDappError, type PlannedRequest } from './dapp-actions.js';
import { DappError, DappErrorCode } from './dapp-error.js';
import type { DappPermissionStore } from './permission-store.js';

/** Who asks: the origin of the page (or the one a client without a browser named) and the name it gave. */
export interface DappApp {
  origin: string;
  name: string;
}

export interface DappRequestsOptions {
  permissions: DappPermissionStore;
  timeoutMs: number;
  maxPendingPerOrigin: number;
  /** Called when the user revokes an origin, for its connections to be closed. */
  onRevoke(origin: string): void;
}

/** How a waiting request ends for the app that sent it. */
export type Answer = (outcome: { result: unknown } | { error: DappError }) => void;

interface Waiting {
  request: DappRequest;
  planned: PlannedRequest;
  answer: Answer;
  /** The connection the request came on: its requests go when it closes. */
  owner: object;
  timer: NodeJS.Timeout;
}

export class DappRequests implements DappApprovals {
  private readonly waiting = new Map<string, Waiting>();
  private readonly granted = new Map<string, DappPermission>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: DappRequestsOptions) {
    for (const permission of options.permissions.load()) this.granted.set(permission.origin, permission);
  }

  pending(): DappRequest[] {
    return [...this.waiting.values()].map(({ request }) => request);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  permissions(): DappPermission[] {
    return [...this.granted.values()];
  }

  permission(origin: string): DappPermission | undefined {
    return this.granted.get(origin);
  }

  /** Queues `planned` for the user's answer; refused when the app's origin already has its fill waiting. */
  ask(app: DappApp, planned: PlannedRequest, owner: object, answer: Answer): void {
    const waitingForOrigin = this.pending().filter((request) => request.origin === app.origin).length;
    if (waitingForOrigin >= this.options.maxPendingPerOrigin)
      throw new DappError(
        DappErrorCode.TooManyPending,
        `${app.origin} already has ${waitingForOrigin} requests waiting for the user; wait for their answers`,
      );
    const id = randomUUID();
    const { carryOut: _, ...shown } = planned;
    const request: DappRequest = { id, ...app, ...shown, expiresAt: Date.now() + this.options.timeoutMs };
    const timer = setTimeout(() => {
      this.take(id)?.answer({
        error: new DappError(
          DappErrorCode.TimedOut,
          `nobody approved or denied the request within ${Math.round(this.options.timeoutMs / 1000)} s`,
        ),
      });
    }, this.options.timeoutMs);
    timer.unref();
    this.waiting.set(id, { request, planned, answer, owner, timer });
    this.changed();
  }

  /** Asks the user to let `app`'s origin in; approving grants it (and answers the app with `result`). */
  askToConnect(app: DappApp, result: unknown, owner: object, answer: Answer): void {
    this.ask(
      app,
      {
        kind: 'connect',
        summary: `let ${JSON.stringify(app.name)} at ${app.origin} ask for your address, signatures, payments and contract calls`,
        details: { origin: app.origin, name: app.name },
        carryOut: async () => {
          this.grant(app);
          return result;
        },
      },
      owner,
      answer,
    );
  }

  /**
   * Carries the request out and answers the app; rejects with the failure (which the app got too) when the wallet
   * cannot, and with an error when no request has the id (already answered, or expired).
   */
  async approve(id: string): Promise<void> {
    const waiting = this.take(id);
    if (!waiting) throw new DappError(DappErrorCode.InvalidParams, `no request ${id} is waiting`);
    try {
      waiting.answer({ result: await waiting.planned.carryOut() });
    } catch (error) {
      const failure = asDappError(error);
      waiting.answer({ error: failure });
      throw failure;
    }
  }

  deny(id: string): void {
    const waiting = this.take(id);
    if (!waiting) throw new DappError(DappErrorCode.InvalidParams, `no request ${id} is waiting`);
    waiting.answer({ error: new DappError(DappErrorCode.Denied, 'the user denied the request') });
  }

  revoke(origin: string): void {
    if (!this.granted.delete(origin)) return;
    this.options.permissions.save(this.permissions());
    for (const { request } of [...this.waiting.values()].filter(({ request }) => request.origin === origin))
      this.take(request.id)?.answer({ error: new DappError(DappErrorCode.NotPermitted, `${origin} was revoked`) });
    this.options.onRevoke(origin);
    this.changed();
  }

  /** Drops the requests that came on a connection that closed: nobody is left to answer. */
  dropOwner(owner: object): void {
    for (const [id, waiting] of this.waiting) if (waiting.owner === owner) this.take(id);
  }

  /** Answers every waiting request that the wallet is closing. */
  close(): void {
    for (const id of [...this.waiting.keys()])
      this.take(id)?.answer({ error: new DappError(DappErrorCode.Closing, 'the wallet is closing') });
  }

  private grant(app: DappApp): void {
    this.granted.set(app.origin, { ...app, grantedAt: Date.now() });
    this.options.permissions.save(this.permissions());
    this.changed();
  }

  /** Removes a waiting request (it is being answered) and stops its clock. */
  private take(id: string): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    this.changed();
    return waiting;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Who may use the web wallet. The terminal prints a URL with a one-time token; opening it trades the token for a
 * session cookie (HttpOnly, SameSite=Strict) and the page receives a session token it sends with every request that
 * changes something, which must also come from the page's own origin. With `--web-login` every request first needs
 * HTTP Basic auth. Anything else is refused before it reaches the wallet.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SESSION_HEADER } from './api-types.js';

const COOKIE = 'umbra_web';
/** A Host header naming this machine by its loopback address or name, with a port. */
const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\]):\d+$/;

const secret = (): string => randomBytes(24).toString('base64url');

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Why a request is refused: its HTTP status and the words for it. */
export interface Refusal {
  status: number;
  message: string;
}

export class WebAccess {
  private oneTimeToken: string | undefined = secret();
  /** Session cookie → the session token its page sends with changes. */
  private readonly sessions = new Map<string, string>();

  constructor(private readonly login?: string) {}

  /** The token the printed URL carries, until a browser has used it. */
  get token(): string | undefined {
    return this.oneTimeToken;
  }

  /** Trades the one-time token for a new session: the Set-Cookie value; undefined when the token is wrong or used. */
  redeem(token: string): string | undefined {
    if (this.oneTimeToken === undefined || !sameText(token, this.oneTimeToken)) return undefined;
    this.oneTimeToken = undefined;
    const cookie = secret();
    this.sessions.set(cookie, secret());
    return `${COOKIE}=${cookie}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The session token of the request's session cookie, if it has a live one. */
  sessionToken(request: IncomingMessage): string | undefined {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const [name, value] = part.trim().split('=', 2);
      if (name === COOKIE && value) return this.sessions.get(value);
    }
    return undefined;
  }

  /**
   * HTTP Basic auth when `--web-login` is set; undefined when the request may go on. Without a login (a loopback
   * bind) the Host must be a loopback name, so that a page whose DNS name was rebound to this machine gets nowhere.
   */
  checkLogin(request: IncomingMessage): Refusal | undefined {
    if (!this.login) {
      const host = request.headers.host ?? '';
      if (LOOPBACK_HOST.test(host)) return undefined;
      return { status: 403, message: `the web wallet answers on 127.0.0.1, localhost or [::1], not ${host}` };
    }
    const [scheme, encoded] = (request.headers.authorization ?? '').split(' ', 2);
    if (scheme === 'Basic' && encoded && sameText(Buffer.from(encoded, 'base64').toString('utf8'), this.login))
      return undefined;
    return { status: 401, message: 'log in with the user and password given to --web-login' };
  }

  /** A request that reads: it needs a live session. */
  checkRead(request: IncomingMessage): Refusal | undefined {
    if (this.sessionToken(request)) return undefined;
    return { status: 401, message: 'no session: open the URL with the token that umbra wallet web printed' };
  }

  /** A request that changes something: a live session, its token in the header, and the page's own origin. */
  checkChange(request: IncomingMessage): Refusal | undefined {
    const token = this.sessionToken(request);
    if (!token) return this.checkRead(request);
    const sent = request.headers[SESSION_HEADER];
    if (typeof sent !== 'string' || !sameText(sent, token))
      return { status: 403, message: 'the request does not carry the session token' };
    const origin = request.headers.origin;
    if (origin === undefined || origin !== `http://${request.headers.host}`)
      return { status: 403, message: `requests from another origin (${origin ?? 'none given'}) are refused` };
    return undefined;
  }
}

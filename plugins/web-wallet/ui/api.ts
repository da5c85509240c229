/**
 * The page's link to its wallet process: JSON requests to `/api/…` (changes carry the session token the server put
 * in the page), and the push stream that says what changed.
 */
import { SESSION_HEADER, type PushTopic } from '../api-types.js';

/** A refusal or failure the server answered, with its words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const sessionToken = document.querySelector<HTMLMetaElement>('meta[name="umbra-session"]')?.content ?? '';

const lockListeners = new Set<() => void>();

async function answer<T>(response: Response): Promise<T> {
  const value = (await response.json().catch(() => ({ error: response.statusText }))) as { error?: string };
  if (response.status === 423) for (const listener of lockListeners) listener();
  if (!response.ok) throw new ApiError(response.status, value.error ?? response.statusText);
  return value as T;
}

export const get = async <T>(path: string): Promise<T> => answer<T>(await fetch(`/api/${path}`));

export const post = async <T>(path: string, body: unknown = {}): Promise<T> =>
  answer<T>(
    await fetch(`/api/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SESSION_HEADER]: sessionToken },
      body: JSON.stringify(body),
    }),
  );

/** Calls `listener` when a request finds the wallet locked. */
export function onLocked(listener: () => void): () => void {
  lockListeners.add(listener);
  return () => lockListeners.delete(listener);
}

const pushListeners = new Set<(topic: PushTopic) => void>();
let stream: EventSource | undefined;

/** Calls `listener` with each topic the wallet process pushes; the stream opens with the first listener. */
export function onPush(listener: (topic: PushTopic) => void): () => void {
  if (!stream) {
    stream = new EventSource('/api/events');
    stream.onmessage = (event) => {
      for (const each of pushListeners) each(event.data as PushTopic);
    };
  }
  pushListeners.add(listener);
  return () => pushListeners.delete(listener);
}

/** The message of a failed request, for the page. */
export const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

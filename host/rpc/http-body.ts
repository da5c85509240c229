/** Reads a request body up to a byte cap, with callbacks (no promise per request: this is the RPC hot path). */
import type { IncomingMessage } from 'node:http';
import { UmbraError } from '../../core-native/ts/errors.js';

export const HttpBodyErrorCode = {
  /** A request body over the server's limit (answered HTTP 413). */
  TooLarge: 'http.body-too-large',
} as const;
export type HttpBodyErrorCode = (typeof HttpBodyErrorCode)[keyof typeof HttpBodyErrorCode];

export class BodyTooLargeError extends UmbraError<HttpBodyErrorCode> {
  override readonly name = 'BodyTooLargeError';
  constructor(message: string) {
    super(HttpBodyErrorCode.TooLarge, message);
  }
}

export function readBody(
  request: IncomingMessage,
  maxBytes: number,
  done: (error: Error | null, body?: Buffer) => void,
): void {
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > maxBytes)
    return done(new BodyTooLargeError(`request body of ${declared} bytes exceeds the limit of ${maxBytes}`));
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (error: Error | null, body?: Buffer): void => {
    if (finished) return;
    finished = true;
    done(error, body);
  };
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      request.removeAllListeners('data');
      request.pause();
      finish(new BodyTooLargeError(`request body exceeds the limit of ${maxBytes} bytes`));
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => finish(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  request.on('error', (error) => finish(error));
}

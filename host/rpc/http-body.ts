/** Reads a request body up to a byte cap. */
import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > maxBytes) return Promise.reject(new BodyTooLargeError(`request body of ${declared} bytes exceeds the limit of ${maxBytes}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.removeAllListeners('data');
        request.pause();
        reject(new BodyTooLargeError(`request body exceeds the limit of ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** HTTP Basic authentication against a configured `user:pass`, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Returns a checker for `Authorization` headers, or null when no login is configured (everything is allowed). */
export function basicAuthChecker(login: string): ((authorization: string | undefined) => boolean) | null {
  if (!login) return null;
  // Comparing fixed-size digests keeps the comparison constant-time whatever the lengths.
  const expected = digest(login);
  return (authorization) => {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
    const given = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    return timingSafeEqual(digest(given), expected) && given.length > 0;
  };
}

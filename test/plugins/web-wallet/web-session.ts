/**
 * The web wallet's API as its page calls it, for server-side tests: the one-time link traded for a session cookie,
 * the page's session token read from it, and JSON requests from the page's own origin.
 */
export interface WebSession {
  /** `GET /api/<path>` or, with a body, `POST`: the status and the JSON answered. */
  api(path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function openWebSession(link: string): Promise<WebSession> {
  const origin = new URL(link).origin;
  const redeemed = await fetch(link, { redirect: 'manual' });
  const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await fetch(`${origin}/`, { headers: { Cookie: cookie } })).text();
  const token = /<meta name="umbra-session" content="([^"]+)"/.exec(page)![1]!;
  return {
    async api(path, body) {
      const response = await fetch(`${origin}/api/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Cookie: cookie,
          ...(body === undefined
            ? {}
            : { Origin: origin, 'Content-Type': 'application/json', 'x-umbra-session': token }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

// One POST of a notification to a receiver, with node:http(s) and keep-alive agents: fetch costs
// about five times the CPU per request here (its web streams and signals), and delivery sends one
// request per notification. Redirects are not followed (a 3xx is no acknowledgement), the answer's
// body is drained and ignored, and the whole attempt ends after `timeoutMs`.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * How long a connection to a receiver is kept once idle. A busy receiver hears from the gateway
 * again well within it; without it an idle connection stayed open until the receiver closed it,
 * never for one that does not (Go's net/http by default), so every receiver ever sent to held up
 * to its peak of parallel connections for good. Below the 5 s of Node's and Apache's servers, so
 * the gateway closes first rather than send on a connection the receiver is closing (a receiver's
 * `Keep-Alive: timeout=n` shortens it to n - 1 s).
 */
export const IDLE_CONNECTION_MS = 4_000;

// Receivers hear from the gateway often: their connections are kept open while they do. The
// agents' timeout closes only idle connections; an attempt's own time is the timer below.
const agents = {
  http: new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  https: new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/** The attempt outlasted its time (its name is what delivery reports). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

export interface Post {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the attempt (delivery stops). */
  signal?: AbortSignal;
  /** The connection's name lookup (live: public addresses only, receivers.ts). */
  lookup?: LookupFunction;
}

/** POST to `url`; resolves with the answer's status once its body is read, rejects on a network error or timeout. */
export function postNotification(url: string, { headers, body, timeoutMs, signal, lookup }: Post): Promise<number> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    const payload = Buffer.from(body, 'utf8');
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: Error) => settle(() => reject(error));
    const request = (https ? httpsRequest : httpRequest)(
      url,
      { method: 'POST', agent: https ? agents.https : agents.http, headers: { ...headers, 'content-length': payload.length }, signal, lookup },
      (response: IncomingMessage) => {
        response.resume();
        response.once('end', () => settle(() => resolve(response.statusCode ?? 0)));
        response.once('error', fail);
        // Cut off mid-answer (a timeout, a stop, the receiver gone): no 'end' comes.
        response.once('close', () => fail(new Error('the answer was cut off')));
      },
    );
    const timer = setTimeout(() => request.destroy(new TimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.once('error', fail);
    request.once('close', () => fail(new Error('the connection closed without an answer')));
    request.end(payload);
  });
}

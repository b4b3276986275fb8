// The demo shop's webhook receiver: what a merchant's server does with notifications. The
// playground registers it for the demo entity through POST /v1/webhooks (a fresh secret per run,
// replacing the receiver of an earlier run), decrypts what arrives (AES-256-GCM, IV and tag in
// headers) and lists the latest notifications on /playground/webhooks.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ciphertextOf, decryptNotification } from '../server/webhooks/encryption.ts';
import { escape, layout } from './pages.ts';

export const RECEIVER_PATH = '/shop/webhooks';
const KEPT = 50;

type Gateway = (path: string, init?: RequestInit) => Promise<{ status: number; body: Record<string, any> }>;

export interface Arrival {
  at: Date;
  notification?: { type?: string; action?: string; payload?: Record<string, any>; presentationAmount?: string; presentationCurrency?: string };
  /** Why it could not be read (a notification for an earlier run's secret). */
  problem?: string;
}

export class DemoReceiver {
  readonly arrivals: Arrival[] = [];
  private readonly secret = randomBytes(32).toString('hex').toUpperCase();
  private registered: string | undefined;

  /** Register the receiver at this URL for the entity, once per URL; receivers of earlier runs are removed. */
  async ensure(gateway: Gateway, entityId: string, url: string): Promise<void> {
    if (this.registered === url) return;
    const list = await gateway(`/v1/webhooks?entityId=${entityId}`);
    for (const hook of (list.body.webhooks ?? []) as Array<{ id: string; url: string; source: string }>) {
      if (hook.source === 'api' && new URL(hook.url).pathname === RECEIVER_PATH) await gateway(`/v1/webhooks/${hook.id}?entityId=${entityId}`, { method: 'DELETE' });
    }
    const created = await gateway('/v1/webhooks', { method: 'POST', body: new URLSearchParams({ entityId, url, secret: this.secret }) });
    if (created.status !== 200) throw new Error(`the gateway refused the webhook: ${JSON.stringify(created.body.result)}`);
    this.registered = url;
  }

  /** A notification arrived: decrypt it and keep it (the latest first). */
  receive(headers: IncomingHttpHeaders, body: string): boolean {
    const arrival: Arrival = { at: new Date() };
    try {
      const plaintext = decryptNotification(
        { iv: String(headers['x-initialization-vector']), tag: String(headers['x-authentication-tag']), ciphertext: ciphertextOf(body, headers['content-type']) },
        this.secret,
      );
      arrival.notification = JSON.parse(plaintext) as Arrival['notification'];
    } catch {
      arrival.problem = 'could not be decrypted with this run\u2019s secret';
    }
    this.arrivals.unshift(arrival);
    this.arrivals.length = Math.min(this.arrivals.length, KEPT);
    return arrival.notification !== undefined;
  }
}

export function webhooksPage(arrivals: Arrival[], problem?: string): string {
  const rows = arrivals
    .map(({ at, notification: n, problem: p }) => {
      if (!n) return `<tr><td>${at.toISOString().slice(11, 19)}</td><td colspan="5">${escape(p ?? '')}</td></tr>`;
      const payload = n.payload ?? {};
      return `<tr><td>${at.toISOString().slice(11, 19)}</td><td>${escape(`${n.type ?? ''} ${n.action ?? ''}`)}</td><td><code>${escape(String(payload.id ?? ''))}</code></td><td>${escape(String(payload.paymentType ?? ''))}</td><td>${escape(String(payload.result?.code ?? ''))}</td><td>${escape(n.presentationAmount ? `${n.presentationAmount} ${n.presentationCurrency ?? ''}` : '')}</td></tr>
<tr><td></td><td colspan="5"><details><summary>Decrypted notification</summary><pre>${escape(JSON.stringify(n, null, 2))}</pre></details></td></tr>`;
    })
    .join('');
  return layout(
    'Webhooks',
    `<h1>Webhooks</h1>
<p>The shop's receiver at <code>${RECEIVER_PATH}</code> is registered for the demo entity (POST /v1/webhooks). Each notification arrives encrypted (AES-256-GCM, IV and tag in the X-Initialization-Vector and X-Authentication-Tag headers) and is decrypted here with the webhook's secret. This page reloads every 3 seconds; pay in the <a href="/">shop</a> or the <a href="/playground">playground</a>.</p>
${problem ? `<p class="outcome failure">${escape(problem)}</p>` : ''}
${arrivals.length ? `<table class="data"><thead><tr><th>Time (UTC)</th><th>Event</th><th>Payment or registration</th><th>Type</th><th>Result</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No notification yet.</p>'}`,
    '<meta http-equiv="refresh" content="3">',
  );
}

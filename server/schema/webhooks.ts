// POST /v1/webhooks (DESIGN.md "Webhooks"; the spec leaves registration open): where an entity's
// notifications go, the AES-256 key they are encrypted with, and the form of the body.
import { z } from 'zod';
import type { Nested } from '../http/params.ts';
import { absoluteUrl, oneOf } from './common.ts';
import { liveReceiverProblem } from '../receivers.ts';
import { paramError } from './errors.ts';
import { parseWith, type Parsed, type ValidationContext } from './requests.ts';

export const webhookRequest = z.strictObject({
  url: absoluteUrl(2048, 6).describe('Where notifications are POSTed: an absolute http or https URL.'),
  secret: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (a 32-byte AES-256 key)')
    .optional()
    .describe('The AES-256-GCM key of the notifications, 64 hexadecimal characters; generated and answered once when left out.'),
  wrapper: oneOf(['none', 'json']).optional().describe('none (default): the body is the hex ciphertext, text/plain; json: {"encryptedBody":"<hex>"}, application/json.'),
});
export type WebhookRequest = z.infer<typeof webhookRequest>;

export function parseWebhookRequest(input: Nested, ctx: ValidationContext): Parsed<WebhookRequest> {
  return parseWith(webhookRequest, input, ctx, (v) => {
    if (v.url === undefined) return [];
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v.url)?.[1]?.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') return [paramError('url', v.url, 'must be an http or https URL')];
    // Live notifications go to merchants' public HTTPS servers only (receivers.ts).
    const problem = ctx.env === 'live' ? liveReceiverProblem(v.url) : undefined;
    if (problem === 'not an https URL') return [paramError('url', v.url, 'must be an https URL in the live environment')];
    if (problem) return [paramError('url', v.url, 'must name a public host (not localhost, a private, loopback or link-local address) in the live environment')];
    return [];
  });
}

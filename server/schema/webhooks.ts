// POST /v1/webhooks (DESIGN.md "Webhooks"; the spec leaves registration open): where an entity's
// notifications go, the AES-256 key they are encrypted with, and the form of the body.
import { z } from 'zod';
import type { Nested } from '../http/params.ts';
import { absoluteUrl } from './common.ts';
import { paramError } from './errors.ts';
import { parseWith, type Parsed, type ValidationContext } from './requests.ts';

export const webhookRequest = z.strictObject({
  url: absoluteUrl(2048, 6).describe('Where notifications are POSTed: an absolute http or https URL.'),
  secret: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (a 32-byte AES-256 key)')
    .optional()
    .describe('The AES-256-GCM key of the notifications, 64 hexadecimal characters; generated and answered once when left out.'),
  wrapper: z.enum(['none', 'json']).optional().describe('none (default): the body is the hex ciphertext, text/plain; json: {"encryptedBody":"<hex>"}, application/json.'),
});
export type WebhookRequest = z.infer<typeof webhookRequest>;

export function parseWebhookRequest(input: Nested, ctx: ValidationContext): Parsed<WebhookRequest> {
  const parsed = parseWith(webhookRequest, input, ctx, (v) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v.url ?? '')?.[1]?.toLowerCase();
    return v.url !== undefined && scheme !== 'http' && scheme !== 'https' ? [paramError('url', v.url, 'must be an http or https URL')] : [];
  });
  if (parsed.ok) return parsed;
  // Even a mistyped key is a key: it never travels back.
  const parameterErrors = parsed.failure.parameterErrors.map((e) => (e.name === 'secret' ? { ...e, value: '*'.repeat(e.value.length) } : e));
  return { ok: false, failure: { ...parsed.failure, parameterErrors } };
}

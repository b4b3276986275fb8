// The frame protocol of docs/widget-protocol.md: one discriminated union, validated on receipt.
// Every window message carries the per-instance `channel` key; a message whose shape, type or
// channel is wrong is dropped (parse* returns null), never half-used.

import { isChallengeWindow, type ChallengeWindow } from './browser.ts';

export type Field = 'number' | 'cvv';

/** Design tokens sent to a frame: `--pw-*` names, plain CSS values. */
export type StyleTokens = Record<string, string>;

// Parent → frame
export interface ConfigureMessage {
  type: 'configure';
  channel: string;
  locale: string;
  label: string;
  placeholder: string;
  /** Text that describes the input (its current error), read by screen readers in the frame. */
  ariaDescribedBy?: string;
  /** The parent shows an error for this field: the frame sets aria-invalid. */
  invalid?: boolean;
  style: StyleTokens;
  /** The 3-D Secure challenge window the widget has room for (sent as customer.browser.challengeWindow). */
  challengeWindow?: ChallengeWindow;
  /** The widget's used colour scheme: the frame's root takes it, so Chromium paints no opaque backdrop behind it. */
  colorScheme?: 'light' | 'dark';
}
export interface SubmitMessage {
  type: 'submit';
  channel: string;
  idempotencyKey: string;
  fields: Record<string, string>;
}
export interface FocusMessage {
  type: 'focus';
  channel: string;
}
export interface ClearMessage {
  type: 'clear';
  channel: string;
}
export type ParentMessage = ConfigureMessage | SubmitMessage | FocusMessage | ClearMessage;

// Frame → parent
export interface ReadyMessage {
  type: 'ready';
  channel: string;
  field: Field;
}
/** Never digits: only what the page needs to show errors and the brand. */
export interface StateMessage {
  type: 'state';
  channel: string;
  field: Field;
  empty: boolean;
  valid: boolean;
  complete: boolean;
  brand?: string;
  cvvLength?: number;
  /** Whether the input has focus (sent on focus and blur, so the page can show errors on leave). */
  focused?: boolean;
}
export interface GatewayAnswer {
  result: { code: string; description?: string; parameterErrors?: { name: string; value?: string; message?: string }[] };
  id?: string;
  paymentBrand?: string;
  /** With parameters: POST them to url (3-D Secure, transfer, wallet); without: go to url. */
  redirect?: { url?: string; parameters?: { name: string; value: string }[] };
  [key: string]: unknown;
}
export interface SubmittedMessage {
  type: 'submitted';
  channel: string;
  /** HTTP status of the gateway's answer; 0 when the network failed (after one retry). */
  status: number;
  body: GatewayAnswer | null;
}
export type AutofillField = 'card.holder' | 'card.expiryMonth' | 'card.expiryYear';
export interface AutofillMessage {
  type: 'autofill';
  channel: string;
  fields: Partial<Record<AutofillField, string>>;
}
/** The shopper pressed Enter in the frame's input: the page submits its form, as Enter in any other field does. */
export interface EnterMessage {
  type: 'enter';
  channel: string;
  field: Field;
}
export type FrameMessage = ReadyMessage | StateMessage | SubmittedMessage | AutofillMessage | EnterMessage;

// Between the number and cvv frames, BroadcastChannel("pw-" + channel), gateway origin only.
export type BroadcastMessage = { type: 'cvv-request' } | { type: 'cvv'; value: string } | { type: 'brand'; brand: string };

export const CHANNEL_PATTERN = /^[0-9a-f]{32}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const TOKEN_NAME = /^--pw-[a-z0-9-]{1,48}$/;
const BRAND = /^[A-Z0-9_]{2,32}$/;
/** What the page may ask the frame to send next to the card: never card.number or card.cvv. */
const SUBMIT_FIELD = /^(paymentBrand|registrationId|createRegistration|card\.(holder|expiryMonth|expiryYear)|billing\.(street1|city|postcode|country)|customParameters\[SHOPPER_[A-Za-z0-9_.]{1,56}\]|customer\.browser\.[A-Za-z]{1,40})$/;
const AUTOFILL_FIELDS: readonly AutofillField[] = ['card.holder', 'card.expiryMonth', 'card.expiryYear'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = 500): v is string => typeof v === 'string' && v.length <= max;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isField = (v: unknown): v is Field => v === 'number' || v === 'cvv';
const optional = (v: unknown, test: (v: unknown) => boolean): boolean => v === undefined || test(v);
const isBrand = (v: unknown): v is string => typeof v === 'string' && BRAND.test(v);

/** A CSS value that cannot leave its declaration: no ; { } < > \ or line breaks, quotes balanced. */
export function isSafeCssValue(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 200) return false;
  if (/[;{}<>\\\u0000-\u001f\u007f]/.test(value)) return false;
  return (value.split('"').length - 1) % 2 === 0 && (value.split("'").length - 1) % 2 === 0;
}

function isStyle(v: unknown): v is StyleTokens {
  if (!isObj(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= 40 && entries.every(([name, value]) => TOKEN_NAME.test(name) && isSafeCssValue(value));
}

function isSubmitFields(v: unknown): v is Record<string, string> {
  if (!isObj(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= 60 && entries.every(([name, value]) => SUBMIT_FIELD.test(name) && isStr(value, 2048));
}

function isAnswer(v: unknown): v is GatewayAnswer {
  return isObj(v) && isObj(v.result) && isStr(v.result.code, 32);
}

/** A message from the page to a frame, or null. Validated, then returned as received. */
export function parseParentMessage(data: unknown, channel: string): ParentMessage | null {
  if (!isObj(data) || data.channel !== channel || !CHANNEL_PATTERN.test(channel)) return null;
  switch (data.type) {
    case 'configure':
      return isStr(data.locale, 35) &&
        isStr(data.label, 200) &&
        isStr(data.placeholder, 100) &&
        isStyle(data.style) &&
        optional(data.ariaDescribedBy, isStr) &&
        optional(data.invalid, isBool) &&
        optional(data.challengeWindow, isChallengeWindow) &&
        optional(data.colorScheme, (v) => v === 'light' || v === 'dark')
        ? (data as unknown as ConfigureMessage)
        : null;
    case 'submit':
      return isStr(data.idempotencyKey) && IDEMPOTENCY_KEY.test(data.idempotencyKey) && isSubmitFields(data.fields) ? (data as unknown as SubmitMessage) : null;
    case 'focus':
    case 'clear':
      return data as unknown as FocusMessage | ClearMessage;
    default:
      return null;
  }
}

/** A message from a frame to the page, or null. Validated, then returned as received. */
export function parseFrameMessage(data: unknown, channel: string): FrameMessage | null {
  if (!isObj(data) || data.channel !== channel || !CHANNEL_PATTERN.test(channel) || !isFrameMessage(data)) return null;
  return data as unknown as FrameMessage;
}

function isFrameMessage(data: Obj): boolean {
  switch (data.type) {
    case 'ready':
    case 'enter':
      return isField(data.field);
    case 'state':
      return (
        isField(data.field) &&
        isBool(data.empty) &&
        isBool(data.valid) &&
        isBool(data.complete) &&
        optional(data.brand, isBrand) &&
        optional(data.focused, isBool) &&
        (data.cvvLength === undefined || data.cvvLength === 3 || data.cvvLength === 4)
      );
    case 'submitted':
      return Number.isInteger(data.status) && (data.status as number) >= 0 && (data.status as number) < 600 && (data.body === null || isAnswer(data.body));
    case 'autofill':
      return isObj(data.fields) && Object.entries(data.fields).every(([name, value]) => AUTOFILL_FIELDS.includes(name as AutofillField) && isStr(value, 128));
    default:
      return false;
  }
}

/** Any protocol message (either direction), or null. */
export function parseMessage(data: unknown, channel: string): ParentMessage | FrameMessage | null {
  return parseParentMessage(data, channel) ?? parseFrameMessage(data, channel);
}

/** A message between the two frames of one card form, or null. */
export function parseBroadcast(data: unknown): BroadcastMessage | null {
  if (!isObj(data)) return null;
  if (data.type === 'cvv-request') return { type: 'cvv-request' };
  if (data.type === 'cvv' && typeof data.value === 'string' && /^\d{0,4}$/.test(data.value)) return { type: 'cvv', value: data.value };
  if (data.type === 'brand' && (data.brand === '' || isBrand(data.brand))) return { type: 'brand', brand: data.brand as string };
  return null;
}

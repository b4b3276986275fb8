// The page side of the secure card frames: their URLs, the message listener with its exact
// origin, source and channel checks, configure messages, and the submit round trip. A reactive
// controller, so the listener lives exactly as long as the form is connected.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PaymentAnswer } from '../../core/http.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { newChannelKey } from '../../core/keys.ts';
import { parseFrameMessage, type ConfigureMessage, type Field, type FrameMessage, type ParentMessage, type StateMessage } from '../../core/messages.ts';

export interface FrameHost extends ReactiveControllerHost, HTMLElement {
  onFrameMessage(field: Field, message: FrameMessage): void;
}

/** Longest wait for the frame's `submitted` (it retries once itself). */
const SUBMIT_TIMEOUT_MS = 90_000;

export class FrameController implements ReactiveController {
  /** Per-instance key: in the frame URLs, in every message, and the BroadcastChannel name. */
  readonly channel = newChannelKey();
  readonly ready = new Set<Field>();
  readonly states: Partial<Record<Field, StateMessage>> = {};
  #gateway = '';
  #lastConfigure: Partial<Record<Field, string>> = {};
  #pending: ((answer: PaymentAnswer) => void) | undefined;

  readonly #host: FrameHost;

  constructor(host: FrameHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('message', this.#onMessage);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this.#onMessage);
    this.ready.clear();
    this.#lastConfigure = {};
    this.#pending?.({ status: 0, body: null });
  }

  /** The security code's error: none, or the length its brand wants (AMEX 4, others 3) when one was typed. */
  cvvProblem(): MessageKey | undefined {
    const state = this.states.cvv;
    if (state?.valid) return undefined;
    if (!state || state.empty || !state.cvvLength) return 'eCvv';
    return state.cvvLength === 4 ? 'eCvv4' : 'eCvv3';
  }

  /** {gateway}/v1/frames/card?field=…&channel=…&origin=…&locale=…&checkoutId=… */
  url(gateway: string, field: Field, locale: string, checkoutId: string): string {
    this.#gateway = gateway;
    const query = new URLSearchParams({ field, channel: this.channel, origin: location.origin, locale, checkoutId });
    return `${gateway}/v1/frames/card?${query}`;
  }

  frame(field: Field): HTMLIFrameElement | null {
    return this.#host.shadowRoot?.querySelector<HTMLIFrameElement>(`iframe[data-field="${field}"]`) ?? null;
  }

  readonly #onMessage = (event: MessageEvent): void => {
    if (!this.#gateway || event.origin !== this.#gateway) return;
    const field: Field | undefined = (['number', 'cvv'] as const).find((f) => {
      const frame = this.frame(f);
      return frame !== null && event.source !== null && event.source === frame.contentWindow;
    });
    if (!field) return;
    const message = parseFrameMessage(event.data, this.channel);
    if (!message || ('field' in message && message.field !== field)) return;
    if (message.type === 'ready') {
      this.ready.add(field);
      // A frame (re)loaded holds nothing typed: neither its last configure nor its last state stands.
      delete this.#lastConfigure[field];
      delete this.states[field];
    } else if (message.type === 'state') {
      this.states[field] = message;
    } else if (message.type === 'submitted') {
      this.#pending?.({ status: message.status, body: message.body });
      return;
    }
    this.#host.onFrameMessage(field, message);
  };

  /** Posts to one frame, to the gateway origin only (never "*"). */
  post(field: Field, message: ParentMessage): void {
    this.frame(field)?.contentWindow?.postMessage(message, this.#gateway);
  }

  /** Sends configure when the frame is ready and something in it changed. */
  configure(field: Field, message: Omit<ConfigureMessage, 'type' | 'channel'>): void {
    if (!this.ready.has(field)) return;
    const full: ConfigureMessage = { type: 'configure', channel: this.channel, ...message };
    const json = JSON.stringify(full);
    if (this.#lastConfigure[field] === json) return;
    this.#lastConfigure[field] = json;
    this.post(field, full);
  }

  /** Asks the frame to pay; resolves with its `submitted` (status 0 if it never answers). */
  submit(field: Field, idempotencyKey: string, fields: Record<string, string>): Promise<PaymentAnswer> {
    this.#pending?.({ status: 0, body: null });
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ status: 0, body: null }), SUBMIT_TIMEOUT_MS);
      const finish = (answer: PaymentAnswer): void => {
        clearTimeout(timer);
        if (this.#pending === finish) this.#pending = undefined;
        resolve(answer);
      };
      this.#pending = finish;
      this.post(field, { type: 'submit', channel: this.channel, idempotencyKey, fields });
    });
  }
}

// The secure field of the gateway-origin frame page /v1/frames/card (docs/widget-protocol.md):
// one input for the card number or the security code. The digits never leave this origin except in
// the payment request; the page only learns empty/valid/complete and the brand.
//
// Trusted Types: DOM is built with createElement/textContent only (no HTML strings), styles go
// through constructable stylesheets (no style attributes). No Lit here (size budget 10 KiB gzip).
import { browserFields, type ChallengeWindow } from '../core/browser.ts';
import { cardInfo, cvvValid, type CardInfo } from '../core/card.ts';
import { caretAfterDigits, digitsOf, groupDigits, parseExpiry } from '../core/format.ts';
import { CHECKOUT_ID, paymentPath, postPayment } from '../core/http.ts';
import {
  CHANNEL_PATTERN,
  parseBroadcast,
  parseParentMessage,
  type AutofillMessage,
  type BroadcastMessage,
  type ConfigureMessage,
  type Field,
  type FrameMessage,
  type StateMessage,
  type SubmitMessage,
} from '../core/messages.ts';

/** How long the number frame waits for the security code from the cvv frame. */
const CVV_WAIT_MS = 1000;

const BASE_CSS = `
:root{--pw-color-text:#1b1f24;--pw-color-muted:#5f6670;--pw-color-surface:#fff;--pw-color-border:#767d87;--pw-color-focus:#0b57d0;--pw-color-error:#b3261e;--pw-radius:6px;--pw-border-width:1px;--pw-font-family:system-ui,sans-serif;--pw-font-size:16px;--pw-input-padding:0 .75rem}
html,body,form{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}
input{box-sizing:border-box;display:block;width:100%;height:100%;margin:0;padding:var(--pw-input-padding);font-family:var(--pw-font-family);font-size:max(16px,var(--pw-font-size));color:var(--pw-color-text);background:var(--pw-color-surface);border:var(--pw-border-width) solid var(--pw-color-border);border-radius:var(--pw-radius);outline:0;direction:ltr;text-align:left}
input:focus{border-color:var(--pw-color-focus);box-shadow:inset 0 0 0 1px var(--pw-color-focus)}
input[aria-invalid=true]{border-color:var(--pw-color-error);box-shadow:inset 0 0 0 1px var(--pw-color-error)}
input:focus{outline:2px solid var(--pw-color-focus);outline-offset:-5px}
input::placeholder{color:var(--pw-color-muted);opacity:1}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.af{position:absolute;top:0;left:0;width:1px;height:1px;overflow:hidden;opacity:0}
`;

export interface FrameSettings {
  field: Field;
  channel: string;
  /** The embedding page's origin: the only one messages are taken from and posted to. */
  origin: string;
  locale: string;
  checkoutId: string;
  /** The Accept header of the frame page's own request (3-D Secure browser data), from `data-accept`. */
  accept?: string;
}

/** Settings from the frame page: data attributes on <html>, else the page URL's query. */
export function readSettings(doc: Document = document, search: string = location.search): FrameSettings | null {
  const query = new URLSearchParams(search);
  const get = (name: keyof FrameSettings): string => doc.documentElement.dataset[name] ?? query.get(name) ?? '';
  const field = get('field');
  const channel = get('channel');
  const origin = get('origin');
  if ((field !== 'number' && field !== 'cvv') || !CHANNEL_PATTERN.test(channel) || !isOrigin(origin)) return null;
  const accept = doc.documentElement.dataset.accept;
  return { field, channel, origin, locale: get('locale'), checkoutId: get('checkoutId'), ...(accept && { accept }) };
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, parent: Node): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  parent.appendChild(element);
  return element;
}

export class SecureField {
  /** Put in the page by the first configure: the input shows, labelled and themed, once the widget's form does. */
  readonly #form: HTMLFormElement;
  readonly #input: HTMLInputElement;
  readonly #label: HTMLLabelElement;
  readonly #description: HTMLSpanElement;
  readonly #tokens = new CSSStyleSheet();
  readonly #broadcast: BroadcastChannel;
  #digits = '';
  #info: CardInfo = cardInfo('');
  /** cvv frame: the code length of the brand the number frame detected. */
  #cvvLength: 3 | 4 | undefined;
  #lastState = '';
  #lastBrand = '';
  #submitting = false;
  #cvvWaiter: ((value: string) => void) | undefined;
  /** number frame: a cvv frame of this channel answered (it answers a request sent at start). */
  #cvvFramePresent = false;
  /** From configure: the challenge window the widget has room for; full page until it says. */
  #challengeWindow: ChallengeWindow = '5';

  readonly #settings: FrameSettings;
  readonly #target: Window;

  constructor(settings: FrameSettings, target: Window = window.parent) {
    this.#settings = settings;
    this.#target = target;
    const { field, locale } = settings;
    const base = new CSSStyleSheet();
    base.replaceSync(BASE_CSS);
    document.adoptedStyleSheets = [base, this.#tokens];
    const root = document.documentElement;
    root.dir = 'ltr';
    if (locale) root.lang = locale;

    // Built now, shown at the first configure: the widget may load its frames while its form is
    // still hidden (the form data loading), and a hidden frame must take no focus or typing.
    const form = (this.#form = document.createElement('form'));
    form.autocomplete = 'on';
    form.noValidate = true;
    form.addEventListener('submit', (event) => event.preventDefault());
    const number = field === 'number';
    this.#label = el('label', { for: 'pw-input', class: 'vh' }, form);
    this.#label.textContent = number ? 'Card number' : 'Security code';
    this.#input = el(
      'input',
      {
        id: 'pw-input',
        name: number ? 'cardnumber' : 'cvc',
        type: 'text',
        inputmode: 'numeric',
        autocomplete: number ? 'cc-number' : 'cc-csc',
        dir: 'ltr',
        spellcheck: 'false',
        autocapitalize: 'off',
        'aria-required': 'true',
        'aria-invalid': 'false',
      },
      form,
    );
    this.#description = el('span', { id: 'pw-description', class: 'vh' }, form);
    // An IME's text is taken once committed: a value changed under a composition ends it, and the
    // IME's next keystroke writes its whole text again ("５５" became 5555).
    this.#input.addEventListener('input', (event) => (event as InputEvent).isComposing || this.#onInput((event as InputEvent).inputType));
    this.#input.addEventListener('compositionend', () => this.#onInput());
    this.#input.addEventListener('focus', () => this.#report(true));
    this.#input.addEventListener('blur', () => this.#report(false));
    // Enter submits the page's form, as in the page's own fields (the frame's form never submits).
    this.#input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return;
      event.preventDefault();
      this.#post({ type: 'enter', channel: settings.channel, field });
    });
    if (number) this.#addAutofillInputs(form);

    this.#broadcast = new BroadcastChannel(`pw-${settings.channel}`);
    this.#broadcast.addEventListener('message', (event) => this.#onBroadcast(parseBroadcast(event.data)));
    window.addEventListener('message', (event) => {
      if (event.origin !== settings.origin || event.source !== this.#target) return;
      const message = parseParentMessage(event.data, settings.channel);
      if (message) this.#onParentMessage(message);
    });
    // Whichever frame starts second finds the other: the number frame asks, the cvv frame answers
    // (also unasked, at its own start), so the number frame knows whether to wait for a code.
    this.#broadcast.postMessage((number ? { type: 'cvv-request' } : { type: 'cvv', value: '' }) satisfies BroadcastMessage);
    this.#post({ type: 'ready', channel: settings.channel, field });
    this.#report(false);
  }

  #post(message: FrameMessage): void {
    this.#target.postMessage(message, this.#settings.origin);
  }

  /**
   * Holder and expiry inputs the browser can autofill together with the number (same frame,
   * same form); what it fills is forwarded to the page, which owns those fields.
   */
  #addAutofillInputs(form: HTMLFormElement): void {
    const box = el('div', { class: 'af', 'aria-hidden': 'true' }, form);
    const name = el('input', { name: 'ccname', autocomplete: 'cc-name', tabindex: '-1' }, box);
    const expiry = el('input', { name: 'ccexp', autocomplete: 'cc-exp', tabindex: '-1', placeholder: 'MM/YY' }, box);
    let last = '';
    const forward = (): void => {
      const fields: AutofillMessage['fields'] = {};
      const holder = name.value.trim();
      if (holder && holder.length <= 128) fields['card.holder'] = holder;
      const parsed = parseExpiry(expiry.value);
      if (parsed) {
        fields['card.expiryMonth'] = parsed.month;
        fields['card.expiryYear'] = parsed.year;
      }
      const json = JSON.stringify(fields);
      if (json === '{}' || json === last) return;
      last = json;
      this.#post({ type: 'autofill', channel: this.#settings.channel, fields });
    };
    for (const input of [name, expiry]) {
      input.addEventListener('input', forward);
      input.addEventListener('change', forward);
    }
  }

  #onInput(inputType?: string): void {
    const input = this.#input;
    const raw = input.value;
    let before = digitsOf(raw.slice(0, input.selectionStart ?? raw.length)).length;
    let digits = digitsOf(raw);
    // Backspace or Delete took only a space, which grouping puts back: the digit beyond it goes
    // instead (else Backspace only moved the caret, and Delete before a space did nothing, ever).
    if (digits === this.#digits && (inputType === 'deleteContentBackward' || inputType === 'deleteContentForward')) {
      if (inputType === 'deleteContentBackward') before--;
      digits = digits.slice(0, before) + digits.slice(before + 1);
    }
    const number = this.#settings.field === 'number';
    if (number) this.#info = cardInfo(digits);
    const max = number ? this.#info.maxLength : (this.#cvvLength ?? 4);
    // Past the longest length, the digits just typed or pasted (those before the caret) are cut, as
    // maxlength refuses a key: a digit typed inside a full number pushed out its last one.
    const over = Math.min(before, digits.length - max);
    if (over > 0) {
      digits = digits.slice(0, before - over) + digits.slice(before);
      before -= over;
    }
    digits = digits.slice(0, max);
    if (number) this.#info = cardInfo(digits);
    const formatted = number ? groupDigits(digits, this.#info.gaps) : digits;
    this.#digits = digits;
    if (formatted !== raw) {
      input.value = formatted;
      if (document.activeElement === input) {
        const caret = caretAfterDigits(formatted, Math.min(before, digits.length));
        input.setSelectionRange(caret, caret);
      }
    }
    this.#report();
  }

  /** Tells the page what it may know: never digits. Sent only when something changed. */
  #report(focused?: boolean): void {
    const { field, channel } = this.#settings;
    let state: StateMessage;
    if (field === 'number') {
      const { brand, valid, complete, cvvLength } = this.#info;
      state = { type: 'state', channel, field, empty: this.#digits === '', valid, complete, ...(brand && { brand, cvvLength }) };
      if ((brand ?? '') !== this.#lastBrand) {
        this.#lastBrand = brand ?? '';
        this.#broadcast.postMessage({ type: 'brand', brand: this.#lastBrand } satisfies BroadcastMessage);
      }
    } else {
      const valid = cvvValid(this.#digits, this.#cvvLength);
      const complete = valid && this.#digits.length === (this.#cvvLength ?? 4);
      state = { type: 'state', channel, field, empty: this.#digits === '', valid, complete, ...(this.#cvvLength && { cvvLength: this.#cvvLength }) };
    }
    if (focused !== undefined) state.focused = focused;
    const json = JSON.stringify(state);
    if (json === this.#lastState) return;
    this.#lastState = json;
    this.#post(state);
  }

  #onBroadcast(message: BroadcastMessage | null): void {
    if (!message) return;
    if (message.type === 'cvv' && this.#settings.field === 'number') {
      this.#cvvFramePresent = true;
      this.#cvvWaiter?.(message.value);
    } else if (message.type === 'cvv-request' && this.#settings.field === 'cvv') {
      this.#broadcast.postMessage({ type: 'cvv', value: this.#digits } satisfies BroadcastMessage);
    } else if (message.type === 'brand' && this.#settings.field === 'cvv') {
      this.#cvvLength = message.brand === '' ? undefined : message.brand === 'AMEX' ? 4 : 3;
      if (this.#cvvLength && this.#digits.length > this.#cvvLength) this.#input.value = this.#digits = this.#digits.slice(0, this.#cvvLength);
      this.#report();
    }
  }

  #onParentMessage(message: ReturnType<typeof parseParentMessage> & object): void {
    switch (message.type) {
      case 'configure':
        this.#configure(message);
        break;
      case 'focus':
        this.#input.focus();
        break;
      case 'clear':
        this.#input.value = this.#digits = '';
        this.#info = cardInfo('');
        this.#report();
        break;
      case 'submit':
        void this.#submit(message);
        break;
    }
  }

  #configure(message: ConfigureMessage): void {
    const input = this.#input;
    // The page's title too: served in English, it would be read in the language of lang.
    this.#label.textContent = document.title = message.label;
    input.placeholder = message.placeholder;
    if (message.locale) document.documentElement.lang = message.locale;
    this.#description.textContent = message.ariaDescribedBy ?? '';
    if (message.ariaDescribedBy) input.setAttribute('aria-describedby', this.#description.id);
    else input.removeAttribute('aria-describedby');
    input.setAttribute('aria-invalid', String(message.invalid === true));
    if (message.challengeWindow) this.#challengeWindow = message.challengeWindow;
    // Names and values were checked by parseParentMessage (--pw-* names, values that cannot
    // leave their declaration).
    const declarations = Object.entries(message.style).map(([name, value]) => `${name}:${value};`);
    // The embedding iframe's scheme: a root whose scheme differs gets an opaque backdrop (white corners on a dark page).
    if (message.colorScheme) declarations.push(`color-scheme:${message.colorScheme};`);
    this.#tokens.replaceSync(`:root{${declarations.join('')}}`);
    if (!this.#form.isConnected) document.body.appendChild(this.#form);
  }

  /** The security code, asked of the cvv frame over the gateway-origin BroadcastChannel. */
  #cvvFromFrame(): Promise<string> {
    return new Promise((resolve) => {
      const done = (value: string): void => {
        clearTimeout(timer);
        this.#cvvWaiter = undefined;
        resolve(value);
      };
      const timer = setTimeout(() => done(''), CVV_WAIT_MS);
      this.#cvvWaiter = done;
      this.#broadcast.postMessage({ type: 'cvv-request' } satisfies BroadcastMessage);
    });
  }

  /**
   * The number frame pays with the card; a cvv frame pays only for a saved registration
   * (registrationId plus the code). The page's Idempotency-Key is reused on the one retry.
   */
  async #submit(message: SubmitMessage): Promise<void> {
    const { field, channel, checkoutId } = this.#settings;
    const forRegistration = message.fields.registrationId !== undefined;
    if (this.#submitting || forRegistration !== (field === 'cvv')) return;
    if (!CHECKOUT_ID.test(checkoutId)) {
      this.#post({ type: 'submitted', channel, status: 0, body: null });
      return;
    }
    this.#submitting = true;
    try {
      // The page's fields first: the frame's own browser data wins over anything it sent.
      const fields = { ...message.fields, ...browserFields({ navigator, screen, now: new Date() }, this.#settings.accept ?? '', this.#challengeWindow) };
      if (field === 'number') {
        fields['card.number'] = this.#digits;
        if (!fields.paymentBrand && this.#info.brand) fields.paymentBrand = this.#info.brand;
        const cvv = this.#cvvFramePresent ? await this.#cvvFromFrame() : '';
        if (cvv) fields['card.cvv'] = cvv;
      } else if (this.#digits) {
        fields['card.cvv'] = this.#digits;
      }
      const answer = await postPayment(paymentPath(checkoutId), fields, message.idempotencyKey);
      this.#post({ type: 'submitted', channel, status: answer.status, body: answer.body });
    } finally {
      this.#submitting = false;
    }
  }
}

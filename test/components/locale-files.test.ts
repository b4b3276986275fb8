// The widget carries English only; another locale's texts are a file of the build, fetched from
// the gateway with the integrity the build gave the widget (src/widget/internal/locales.ts).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import { all, CHECKOUT_ID, formData, fromFrame, GATEWAY, json, localeFile, one, settle, stubFetch, widget, type FetchCall } from './support.ts';

describe('<payment-widget> locale files', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  afterEach(() => fetchStub.restore());

  it('fetches the locale file alongside the form data, with its integrity, and renders in German once both arrived', async () => {
    fetchStub = stubFetch();
    const waiting = new Map<'form' | 'locale', { call: FetchCall; answer: (response: Response | Promise<Response>) => void }>();
    window.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) =>
      new Promise<Response>((answer) => waiting.set(String(input).includes('/v1/locales/') ? 'locale' : 'form', { call: { url: String(input), init }, answer }))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="de-AT"></payment-widget>`);

    // Both requests are out before either is answered.
    await waitUntil(() => waiting.size === 2, 'the form data and the locale file were not both requested');
    const locale = waiting.get('locale')!.call;
    expect(locale.url).to.match(new RegExp(`^${GATEWAY}/v1/locales/de\\.json\\?v=[A-Za-z0-9%]+$`));
    expect(locale.init.integrity).to.match(/^sha384-[A-Za-z0-9+/]{64}$/);

    // The form data alone does not render the form: it waits for the texts.
    waiting.get('form')!.answer(json(formData()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(el.checkout).to.equal(undefined);
    expect(one(el, '[part="status"]').textContent).to.equal('');

    waiting.get('locale')!.answer(localeFile()(locale));
    await waitUntil(() => el.checkout !== undefined, 'the form did not render');
    await el.updateComplete;
    await waitUntil(() => all(el, 'label[for="holder"]').length === 1);
    expect(el.getAttribute('lang')).to.equal('de');
    expect(el.getAttribute('dir')).to.equal('ltr');
    expect(one(el, 'label[for="holder"]').textContent).to.equal('Name auf der Karte');
    expect(one<HTMLInputElement>(el, '#expiry').placeholder).to.equal('MM/JJ');
    // Texts of the language, the amount as the asked region writes it (Austria: the sign first).
    expect(one(el, 'button[type="submit"]').textContent).to.match(/^€\s92,00 bezahlen$/);
    expect(all(el, '[part="status"]')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('keeps the loading ring still for a shopper who asked for reduced motion', async () => {
    fetchStub = stubFetch();
    window.fetch = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="de"></payment-widget>`);
      const spinner = getComputedStyle(one(el, '[part="status"]'), '::before');
      expect(spinner.content).to.equal('""');
      expect(spinner.animationName).to.equal('none');
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('shows a German page no English while it loads: a spinner, then the German text once the texts came', async () => {
    fetchStub = stubFetch();
    const waiting = new Map<'form' | 'locale', { call: FetchCall; answer: (response: Response | Promise<Response>) => void }>();
    window.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) =>
      new Promise<Response>((answer) => waiting.set(String(input).includes('/v1/locales/') ? 'locale' : 'form', { call: { url: String(input), init }, answer }))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="de"></payment-widget>`);
    await waitUntil(() => waiting.size === 2, 'the form data and the locale file were not both requested');

    // The first paint: a spinning ring and no word, in no language.
    const status = one(el, '[part="status"]');
    expect(status.textContent).to.equal('');
    const spinner = getComputedStyle(status, '::before');
    expect(spinner.content).to.equal('""');
    expect(spinner.animationName).to.equal('pw-spin');
    expect(spinner.borderTopColor).to.equal('rgba(0, 0, 0, 0)');
    await expect(el).to.be.accessible();

    // The texts come first: the status says it in German, the spinner beside it.
    waiting.get('locale')!.answer(localeFile()(waiting.get('locale')!.call));
    await waitUntil(() => el.getAttribute('lang') === 'de', 'the German texts were not taken');
    await el.updateComplete;
    expect(one(el, '[part="status"]').textContent).to.equal('Wird geladen…');
    expect(getComputedStyle(one(el, '[part="status"]'), '::before').animationName).to.equal('pw-spin');

    waiting.get('form')!.answer(json(formData()));
    await waitUntil(() => el.checkout !== undefined, 'the form did not render');
    await el.updateComplete;
    expect(all(el, '[part="status"]')).to.have.length(0);
  });

  it('says "Loading…" at once on an English page, and the shop\u2019s own loading label on any page', async () => {
    const answers: Array<(response: Response) => void> = [];
    fetchStub = stubFetch();
    window.fetch = (() => new Promise<Response>((answer) => answers.push(answer))) as typeof fetch;
    const english = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="en-GB"></payment-widget>`);
    expect(one(english, '[part="status"]').textContent).to.equal('Loading…');
    const shop = await fixture<PaymentWidget>(
      html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="de" .options=${{ labels: { loading: 'Einen Moment…' } }}></payment-widget>`,
    );
    expect(one(shop, '[part="status"]').textContent).to.equal('Einen Moment…');
    await expect(shop).to.be.accessible();
  });

  it('is right-to-left in Arabic once its texts arrived, with the frames told so', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA', locale: 'ar' });
    expect(el.getAttribute('dir')).to.equal('rtl');
    expect(one(el, 'label[for="holder"]').textContent).to.equal('الاسم على البطاقة');
    expect(new URL(one<HTMLIFrameElement>(el, 'iframe').src).searchParams.get('locale')).to.equal('ar');
    await expect(el).to.be.accessible();
  });

  it('speaks Hebrew, Persian and Urdu right to left, Hebrew asked for by Java\u2019s old code iw too', async () => {
    // The amounts keep their direction marks in a right-to-left sentence; compared without them.
    const plain = (text: string | null) => (text ?? '').replace(/[\u200e\u200f\u061c]/g, '').replace(/\s/g, ' ');
    for (const [asked, lang, holder, pay] of [
      ['iw_IL', 'he', 'שם בעל הכרטיס', 'לתשלום 92.00 €'],
      ['fa-IR', 'fa', 'نام دارنده کارت', 'پرداخت € 92.00'],
      ['ur-PK', 'ur', 'کارڈ پر درج نام', '€92.00 ادا کریں'],
    ] as const) {
      fetchStub = stubFetch();
      const el = await widget({ brands: 'VISA', locale: asked });
      expect(el.getAttribute('lang')).to.equal(lang);
      expect(el.getAttribute('dir')).to.equal('rtl');
      expect(getComputedStyle(one(el, 'pw-card-form')).direction).to.equal('rtl');
      expect(one(el, 'label[for="holder"]').textContent).to.equal(holder);
      expect(plain(one(el, 'button[type="submit"]').textContent)).to.equal(pay);
      expect(fetchStub.calls.some((call) => call.url.includes(`/v1/locales/${lang}.json`))).to.equal(true);
      await expect(el).to.be.accessible();
      fetchStub.restore();
    }
  });

  it('speaks Traditional Chinese to Taiwan, Hong Kong and Macau, Simplified to mainland China and Singapore', async () => {
    for (const [asked, lang, legend, expiry] of [
      ['zh-TW', 'zh-Hant', '付款方式', '有效期限'],
      ['zh-HK', 'zh-Hant', '付款方式', '有效期限'],
      ['zh_MO', 'zh-Hant', '付款方式', '有效期限'],
      ['zh-Hant', 'zh-Hant', '付款方式', '有效期限'],
      ['zh-CN', 'zh', '支付方式', '有效期'],
      ['zh-Hans-HK', 'zh', '支付方式', '有效期'],
    ] as const) {
      fetchStub = stubFetch();
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', locale: asked });
      expect(el.getAttribute('lang'), asked).to.equal(lang);
      expect(fetchStub.calls.filter((call) => call.url.includes('/v1/locales/')).map((call) => new URL(call.url).pathname)).to.deep.equal([`/v1/locales/${lang}.json`]);
      expect(one(el, 'legend').textContent, asked).to.equal(legend);
      expect(one(el, 'label[for="expiry"]').textContent, asked).to.equal(expiry);
      // The frames load the asked locale's texts under its own name.
      expect(new URL(one<HTMLIFrameElement>(el, 'iframe').src).searchParams.get('locale')).to.equal(lang);
      await expect(el).to.be.accessible();
      fetchStub.restore();
    }
  });

  it('speaks Brazil\u2019s Portuguese to Brazil and Portugal\u2019s to Portugal, each writing the amount its way', async () => {
    for (const [asked, lang, save, pay] of [
      ['pt-BR', 'pt-BR', 'Salvar para pagamentos futuros', 'Pagar € 92,00'],
      ['pt_BR', 'pt-BR', 'Salvar para pagamentos futuros', 'Pagar € 92,00'],
      ['pt-PT', 'pt', 'Guardar para pagamentos futuros', 'Pagar 92,00 €'],
    ] as const) {
      fetchStub = stubFetch();
      const el = await widget({ brands: 'VISA', locale: asked, options: { registrations: { askToSave: true } } });
      expect(el.getAttribute('lang'), asked).to.equal(lang);
      expect(fetchStub.calls.filter((call) => call.url.includes('/v1/locales/')).map((call) => new URL(call.url).pathname)).to.deep.equal([`/v1/locales/${lang}.json`]);
      expect(one(el, '[part~="save"] span').textContent, asked).to.equal(save);
      expect(one(el, 'button[type="submit"]').textContent!.replace(/\s/g, ' ')).to.equal(pay);
      await expect(el).to.be.accessible();
      fetchStub.restore();
    }
  });

  it('renders in English when the locale file does not match its integrity', async () => {
    // The test server's tampered copy really differs (one text changed), so Chromium refuses it.
    const tampered = (await (await fetch('/__locales/tampered/de.json')).json()) as string[];
    expect(tampered[0]).to.equal('Tampered');
    fetchStub = stubFetch(formData(), undefined, localeFile('/__locales/tampered/de.json'));
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', locale: 'de' });
    expect(fetchStub.calls.some((call) => call.url.includes('/v1/locales/de.json'))).to.equal(true);
    expect(el.getAttribute('lang')).to.equal('en');
    expect(one(el, 'legend').textContent).to.equal('Payment method');
    expect(one(el, 'label[for="holder"]').textContent).to.equal('Name on card');
    // The amount, the frames and the texts agree on English: the frame's URL names the locale
    // asked for (the frames load while the texts do), configure the one in use.
    expect(one(el, 'button[type="submit"]').textContent).to.equal('Pay €92.00');
    expect(new URL(one<HTMLIFrameElement>(el, 'iframe').src).searchParams.get('locale')).to.equal('de');
    const card = one<CardForm>(el, 'pw-card-form');
    const posted: Record<string, unknown>[] = [];
    card.frames.post = (_field, message) => void posted.push(message as unknown as Record<string, unknown>);
    fromFrame(one(el, 'iframe[data-field="number"]'), { type: 'ready', channel: card.frames.channel, field: 'number' });
    await settle(el);
    expect(posted[0]).to.include({ type: 'configure', locale: 'en', label: 'Card number' });
    await expect(el).to.be.accessible();
  });

  it('renders in English when the locale file cannot be fetched or is not there', async () => {
    for (const locales of [() => Promise.reject(new TypeError('Failed to fetch')), () => json({ result: { code: '200.300.404' } }, 404)]) {
      fetchStub = stubFetch(formData(), undefined, locales);
      const el = await widget({ brands: 'VISA', locale: 'ar' });
      expect(el.getAttribute('lang')).to.equal('en');
      expect(el.getAttribute('dir')).to.equal('ltr');
      expect(one(el, 'label[for="holder"]').textContent).to.equal('Name on card');
      expect(all(el, 'iframe')).to.have.length(2);
      await expect(el).to.be.accessible();
      fetchStub.restore();
    }
  });

  it('applies the shop\u2019s labels over the loaded locale', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA', locale: 'de', options: { labels: { holder: 'Karteninhaber', submit: 'Jetzt kaufen' } } });
    expect(one(el, 'label[for="holder"]').textContent).to.equal('Karteninhaber');
    expect(one(el, 'button[type="submit"]').textContent).to.equal('Jetzt kaufen');
    expect(one(el, 'label[for="expiry"]').textContent).to.equal('Ablaufdatum');
    await expect(el).to.be.accessible();
  });

  it('never shows the failure of an earlier checkout id, which waited for the texts, over a later one\u2019s form', async () => {
    fetchStub = stubFetch();
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id="not-a-checkout" gateway=${GATEWAY} brands="VISA" locale="de"></payment-widget>`);
    el.checkoutId = CHECKOUT_ID;
    await waitUntil(() => el.checkout !== undefined, 'the form did not render');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(el.loadError).to.equal('');
    expect(all(el, '[part="alert"]').filter((alert) => alert.textContent)).to.have.length(0);
    expect(el.getAttribute('lang')).to.equal('de');
  });

  it('fetches nothing for English', async () => {
    fetchStub = stubFetch();
    await widget({ brands: 'VISA', locale: 'en-GB' });
    expect(fetchStub.calls.map((call) => new URL(call.url).pathname)).to.deep.equal([`/v1/checkouts/${CHECKOUT_ID}/form`]);
  });
});

// The webview page's script (src/webview/index.ts) on a page of its own: the page follows the
// language its <payment-widget> speaks. (Imported, the script also tries to register its service
// worker, which the test server does not serve: it says so in the console and goes on.)
import { expect } from '@open-wc/testing';
import { followWidgetLanguage } from '../../src/webview/index.ts';

/** A webview page whose widget speaks `widgetLang` (its texts: `method`), the page asking for `pageLang`. */
function webviewPage(pageLang: string, widgetLang: string, method: string, dir = 'ltr'): { doc: Document; ready: () => void } {
  const doc = document.implementation.createHTMLDocument('Payment');
  doc.documentElement.lang = pageLang;
  const widget = Object.assign(doc.createElement('payment-widget'), { strings: { method } });
  widget.lang = widgetLang;
  widget.dir = dir;
  doc.body.append(widget);
  followWidgetLanguage(doc);
  return { doc, ready: () => widget.dispatchEvent(new CustomEvent('pw-ready')) };
}

describe('webview page', () => {
  it('takes the language the widget speaks: its title, direction, and lang when the widget fell back to English', () => {
    const german = webviewPage('de', 'de', 'Zahlungsart');
    german.ready();
    expect([german.doc.title, german.doc.documentElement.lang, german.doc.documentElement.dir]).to.deep.equal(['Zahlungsart', 'de', 'ltr']);

    // The German texts could not be loaded: an English title read as German, lang="de", before.
    const fallback = webviewPage('de', 'en', 'Payment method');
    fallback.ready();
    expect([fallback.doc.title, fallback.doc.documentElement.lang]).to.deep.equal(['Payment method', 'en']);

    const arabic = webviewPage('ar', 'ar', 'طريقة الدفع', 'rtl');
    arabic.ready();
    expect([arabic.doc.documentElement.lang, arabic.doc.documentElement.dir]).to.deep.equal(['ar', 'rtl']);

    // The region the page named stays (the widget's lang is the language alone).
    const portugal = webviewPage('pt-PT', 'pt', 'Método de pagamento');
    portugal.ready();
    expect(portugal.doc.documentElement.lang).to.equal('pt-PT');
  });
});

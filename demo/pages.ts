// HTML of the demo shop's pages. No inline script or style anywhere: the page runs under the
// strict policy of shopCsp(), as a careful shop's would.
import { chargebackAmounts, type TestCard } from '../server/simulator/testCards.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function layout(title: string, main: string, head = '', options: { wide?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Demo shop</title>
<link rel="stylesheet" href="/demo/shop.css">
${head}
</head>
<body>
<header class="shop-header"><a href="/">Demo shop</a><nav><a href="/playground">Playground</a><a href="/reference">API reference</a></nav></header>
<main${options.wide ? ' class="wide"' : ''}>
${main}
</main>
</body>
</html>
`;
}

export interface ShopPage {
  gateway: string;
  checkoutId: string;
  integrity: string;
  amount: string;
  brands: string;
  action: string;
}

export function shopPage(p: ShopPage): string {
  const script = `<script src="/demo/options.js"></script>
<script src="${escape(p.gateway)}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(p.checkoutId)}" integrity="${escape(p.integrity)}" crossorigin="anonymous"></script>`;
  return layout(
    'Checkout',
    `<h1>Your order</h1>
<p class="order">1 × Demo product <span class="price" data-amount="${escape(p.amount)}">EUR ${escape(p.amount)}</span></p>
<form action="${escape(p.action)}" class="paymentWidgets" data-brands="${escape(p.brands)}"></form>`,
    script,
  );
}

export interface TransferPage {
  /** The gateway's redirect to the bank: the shopper's browser POSTs its parameters there. */
  redirect?: { url: string; parameters: { name: string; value: string }[] };
  /** The gateway refused the payment. */
  response?: { status: number; body: unknown };
}

/** Online transfer: the shopper's details, then the button that takes them to their bank. */
export function transferPage(p: TransferPage): string {
  if (p.redirect) {
    const inputs = p.redirect.parameters.map((q) => `<input type="hidden" name="${escape(q.name)}" value="${escape(q.value)}">`).join('');
    return layout(
      'Online transfer',
      `<h1>Online transfer</h1>
<p>Your bank confirms the transfer of EUR 92.00 on its own page.</p>
<form method="post" action="${escape(p.redirect.url)}" class="playground">${inputs}<button type="submit">Continue to your bank</button></form>`,
    );
  }
  return layout(
    'Online transfer',
    `<h1>Online transfer</h1>
${p.response ? `<p class="outcome failure">The gateway refused the transfer (HTTP ${p.response.status}).</p><pre class="response">${escape(JSON.stringify(p.response.body, null, 2))}</pre>` : ''}
<p class="order">1 × Demo product <span class="price">EUR 92.00</span></p>
<form method="post" action="/transfer" class="playground">
<label>Account holder <input name="holder" value="Jane Jones" autocomplete="name" required></label>
<label>Bank country <select name="country"><option>DE</option><option>AT</option><option>NL</option></select></label>
<button type="submit">Pay by online transfer</button>
</form>`,
  );
}

export function resultPage(status: number, body: Record<string, any>): string {
  const code: string = body?.result?.code ?? '';
  const success = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/.test(code);
  const pending = /^(000\.200)/.test(code);
  const outcome = success ? 'Payment successful' : pending ? 'Payment pending' : 'Payment not completed';
  const rows: Array<[string, string | undefined]> = [
    ['Result code', code],
    ['Description', body?.result?.description],
    ['Amount', body?.amount && `${body.currency} ${body.amount}`],
    ['Brand', body?.paymentBrand],
    ['Card', body?.card?.last4Digits && `•••• ${body.card.last4Digits}`],
    ['Payment id', body?.id],
    ['Registration', body?.registrationId],
  ];
  return layout(
    outcome,
    `<h1 class="outcome ${success ? 'success' : pending ? 'pending' : 'failure'}" data-result-code="${escape(code)}">${outcome}</h1>
<dl class="result">${rows
      .filter(([, v]) => v)
      .map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(String(v))}</dd>`)
      .join('')}</dl>
<details><summary>What the shop's server read (HTTP ${status})</summary><pre>${escape(JSON.stringify(body, null, 2))}</pre></details>
<p><a href="/">Buy again</a>${typeof body?.registrationId === 'string' ? ` · <a href="/?registration=${encodeURIComponent(body.registrationId)}">Buy again with the saved payment method</a>` : ''}</p>`,
  );
}

export interface Playground {
  cards: TestCard[];
  declineAmounts: Record<string, string>;
  response?: { status: number; body: unknown };
}

export function playgroundPage(p: Playground): string {
  const cards = p.cards
    .map(
      (c) =>
        `<tr><td><code>${c.number}</code></td><td>${escape(c.brand)}</td><td>${escape(c.description)}</td><td>${c.declineCode ?? ''}</td></tr>`,
    )
    .join('');
  const amounts = Object.entries(p.declineAmounts)
    .map(([amount, code]) => `<tr><td><a href="/?amount=${amount}">${amount}</a></td><td>${code}</td></tr>`)
    .join('');
  const options = p.cards.map((c) => `<option value="${c.number}">${c.number} · ${escape(c.description)}</option>`).join('');
  return layout(
    'Playground',
    `<h1>Playground</h1>
<p>Test data of the simulator (test environment). Any future expiry date; any 3-digit security code, 4 digits for AMEX.</p>
<h2>Cards</h2>
<table class="data"><thead><tr><th>Number</th><th>Brand</th><th>Behaviour</th><th>Decline code</th></tr></thead><tbody>${cards}</tbody></table>
<h2>Amounts that decline</h2>
<p>Open the shop with one of these amounts to see the decline in the payment form.</p>
<table class="data"><thead><tr><th>Amount</th><th>Result code</th></tr></thead><tbody>${amounts}</tbody></table>
<h2>Amounts that are charged back</h2>
<p>A debit or capture of one of these amounts is approved and settled the next day (UTC); the same settlement file carries a CHARGEBACK record with the reason (GET /reports/v1/reconciliations/aggregations).</p>
<table class="data"><thead><tr><th>Amount</th><th>Chargeback reason</th></tr></thead><tbody>${Object.entries(chargebackAmounts)
  .map(([amount, code]) => `<tr><td><a href="/?amount=${amount}">${amount}</a></td><td>${code}</td></tr>`)
  .join('')}</tbody></table>
<h2>3-D Secure</h2>
<p>Pay with a card above, or open the shop on a path of the simulated directory server: ${['frictionless', 'attempt', 'challenge', 'error', 'notEnrolled', 'methodTimeout'].map((flow) => `<a href="/?flow=${flow}">${flow}</a>`).join(' · ')}; <a href="/?flow=challenge&amp;topLevel=1">challenge at the top level</a>; <a href="/?billing=ask">a checkout without billing address</a> (the form asks the shopper for it).</p>
<h2>Saved cards</h2>
<p><a href="/?save=ask">The form asks the shopper to save the card</a> (or the SEPA account): tick "Save for future payments", and the result page offers to buy again with what was saved.</p>
<h2>Other ways to pay</h2>
<p><a href="/transfer">Online transfer</a> (server-to-server, the bank's page approves or cancels) · <a href="/app">the webview page an app opens</a> (its result goes to the app's own scheme) · <a href="/?wallets=1">the shop with wallet buttons</a> (Apple Pay, Google Pay, Samsung Pay: a button for each wallet this browser can pay with, through the Payment Request API; the simulator approves any token; Apple Pay's merchant session is simulated, which a real Safari refuses).</p>
<h2>Webhooks</h2>
<p><a href="/playground/webhooks">Notifications as they arrive</a>: the shop's receiver, registered for the demo entity, decrypts them.</p>
<h2>Server-to-server payment</h2>
<form method="post" action="/playground/pay" class="playground">
<label>Card <select name="card.number">${options}</select></label>
<label>Amount <input name="amount" value="92.00" inputmode="decimal" pattern="\\d{1,10}\\.\\d{2}"></label>
<label>Type <select name="paymentType"><option>DB</option><option>PA</option><option>CD</option></select></label>
<button type="submit">Send</button>
</form>
<h2>Subscription</h2>
<p>Stores the card as a registration and pays it every minute for five minutes (POST /scheduling/v1/schedules). Each payment arrives as a <a href="/playground/webhooks">notification</a>.</p>
<form method="post" action="/playground/subscribe" class="playground">
<label>Card <select name="card.number">${options}</select></label>
<label>Amount <input name="amount" value="9.99" inputmode="decimal" pattern="\\d{1,10}\\.\\d{2}"></label>
<button type="submit">Subscribe</button>
</form>
${p.response ? `<h2>Response (HTTP ${p.response.status})</h2><pre class="response">${escape(JSON.stringify(p.response.body, null, 2))}</pre>` : ''}`,
  );
}

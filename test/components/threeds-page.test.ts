// dist/threeds.js, the script of the gateway's 3-D Secure pages (src/threeds/authentication.ts),
// run against stand-in pages of the test server (web-test-runner.config.mjs, /__threeds/…) that
// require Trusted Types: the method URL in a hidden frame with its time limit, the outcome posted
// to the gateway, the challenge request posted on, and the top-level navigation at the end.
import { expect, waitUntil } from '@open-wc/testing';
import { METHOD_TIMEOUT_MS, runPage, toTopLevel } from '../../src/threeds/authentication.ts';

/** A stand-in gateway page in a frame of the test page, with these data attributes on its <html>. */
async function gatewayPage(attributes: Record<string, string>): Promise<{ frame: HTMLIFrameElement; doc: () => Document; violations: string[] }> {
  const frame = document.createElement('iframe');
  frame.title = 'gateway page';
  frame.src = `/__threeds/page?${new URLSearchParams(attributes)}`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const violations: string[] = [];
  frame.contentDocument!.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
  return { frame, doc: () => frame.contentDocument!, violations };
}

/** What the stand-in echo page was posted, once the frame got there. */
async function posted(frame: HTMLIFrameElement, timeout = 5000): Promise<Record<string, string>> {
  // While the frame navigates, its new document may not have a root element yet.
  await waitUntil(() => frame.contentDocument?.documentElement?.dataset.posted !== undefined, 'nothing was posted to the echo page', { timeout });
  const root = frame.contentDocument!.documentElement;
  expect(root.dataset.method).to.equal('POST');
  return JSON.parse(root.dataset.posted!);
}

describe('threeds.js: the gateway’s 3-D Secure pages', () => {
  afterEach(() => {
    for (const frame of document.querySelectorAll('iframe')) frame.remove();
  });

  it('waits the EMV 10 seconds for the method URL', () => {
    expect(METHOD_TIMEOUT_MS).to.equal(10_000);
  });

  it('runs the method URL in a hidden frame and tells the gateway it finished (Y)', async () => {
    const page = await gatewayPage({ 'continue-url': '/__threeds/echo', token: 'tok-1', 'method-url': '/__threeds/method-done', 'method-data': 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ' });
    const running = runPage(page.doc(), page.frame.contentWindow!, 3000);
    const method = page.doc().querySelector<HTMLIFrameElement>('iframe')!;
    expect(method.hidden).to.equal(true);
    expect(method.getAttribute('aria-hidden')).to.equal('true');
    expect(method.title).to.not.equal('');
    expect(await running).to.equal('Y');
    expect(await posted(page.frame)).to.deep.equal({ token: 'tok-1', threeDSCompInd: 'Y' });
    expect(page.violations).to.deep.equal([]);
    await expect(page.frame).to.be.accessible();
  });

  it('goes on without the method after the time limit (N)', async () => {
    const page = await gatewayPage({ 'continue-url': '/__threeds/echo', token: 'tok-2', 'method-url': '/__threeds/method-hang', 'method-data': 'x' });
    const started = Date.now();
    expect(await runPage(page.doc(), page.frame.contentWindow!, 300)).to.equal('N');
    expect(Date.now() - started).to.be.within(250, 2500);
    expect(await posted(page.frame)).to.deep.equal({ token: 'tok-2', threeDSCompInd: 'N' });
    await expect(page.frame).to.be.accessible();
  });

  it('says there was no method (U) when the issuer has none', async () => {
    const page = await gatewayPage({ 'continue-url': '/__threeds/echo', token: 'tok-3' });
    expect(await runPage(page.doc(), page.frame.contentWindow!, 300)).to.equal('U');
    expect(page.doc().querySelector('iframe')).to.equal(null);
    expect(await posted(page.frame)).to.deep.equal({ token: 'tok-3', threeDSCompInd: 'U' });
    await expect(page.frame).to.be.accessible();
  });

  it('posts the challenge request to the issuer in the same window', async () => {
    const page = await gatewayPage({ 'post-url': '/__threeds/echo', 'post-fields': JSON.stringify({ creq: 'eyJjcmVxIjoxfQ', threeDSSessionData: 's-1', ignored: 5 }) });
    await runPage(page.doc(), page.frame.contentWindow!);
    expect(await posted(page.frame)).to.deep.equal({ creq: 'eyJjcmVxIjoxfQ', threeDSSessionData: 's-1' });
    expect(page.violations).to.deep.equal([]);
    await expect(page.frame).to.be.accessible();
  });

  it('waits for the payment to be decided without reloading its page, then loads the answer', async () => {
    // A page that reloaded itself every 2 s (meta refresh) was read again from its top each time.
    const frame = document.createElement('iframe');
    frame.title = 'gateway page';
    frame.src = `/__threeds/wait?${new URLSearchParams({ id: String(Math.random()), n: '3', wait: '50' })}`;
    let loads = 0;
    const first = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.addEventListener('load', () => loads++);
    document.body.append(frame);
    await first;
    expect(frame.contentDocument!.documentElement.dataset.wait).to.equal('50');
    void runPage(frame.contentDocument!, frame.contentWindow!);
    // Its document can be read before its load event: both are waited for.
    await waitUntil(() => loads >= 2 && frame.contentDocument?.documentElement?.dataset.decided, 'the decided page was never loaded', { timeout: 3000 });
    // Asked three times by script (409, 409, then 200), loaded once more: the answer.
    expect(frame.contentDocument!.documentElement.dataset.decided).to.equal('5');
    expect(loads).to.equal(2);
    await expect(frame).to.be.accessible();
  });

  it('posts nowhere that is not http(s)', async () => {
    const page = await gatewayPage({ 'post-url': 'javascript:alert(1)', 'post-fields': '{}', 'continue-url': 'data:text/html,x' });
    expect(await runPage(page.doc(), page.frame.contentWindow!)).to.equal(undefined);
    expect(page.doc().querySelector('form')).to.equal(null);
    await expect(page.frame).to.be.accessible();
  });

  it('sends the top-level page to the result at the end, an app’s scheme included, never to code', async () => {
    const fake = () => {
      const top = { location: { href: '' } };
      return { top, location: { href: '' } } as unknown as Window & { top: { location: { href: string } } };
    };
    const page = await gatewayPage({ 'result-url': 'https://shop.example/result?id=1&resourcePath=%2Fv1%2Fcheckouts%2F1%2Fpayment', 'continue-url': '/__threeds/echo' });
    const win = fake();
    await runPage(page.doc(), win);
    expect(win.top.location.href).to.equal('https://shop.example/result?id=1&resourcePath=%2Fv1%2Fcheckouts%2F1%2Fpayment');
    expect(win.location.href).to.equal('');

    const app = await gatewayPage({ 'result-url': 'myapp://result?id=2' });
    const appWin = fake();
    await runPage(app.doc(), appWin);
    expect(appWin.top.location.href).to.equal('myapp://result?id=2');

    const evil = await gatewayPage({ 'result-url': 'javascript:alert(1)' });
    const evilWin = fake();
    await runPage(evil.doc(), evilWin);
    expect(evilWin.top.location.href).to.equal('');

    // When the top may not be navigated from here, the page itself goes.
    const blocked = {
      top: {
        location: {
          set href(_url: string) {
            throw new DOMException('not allowed', 'SecurityError');
          },
        },
      },
      location: { href: '' },
    } as unknown as Window;
    toTopLevel(blocked, 'https://shop.example/result');
    expect(blocked.location.href).to.equal('https://shop.example/result');
    await expect(page.frame).to.be.accessible();
  });
});

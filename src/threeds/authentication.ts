// The script of the gateway's 3-D Secure pages (dist/threeds.js, docs/threeds-protocol.md): the
// page says in data attributes on <html> what to do, and this does it.
//   data-result-url            the end: send the top-level page to the result
//   data-post-url, -post-fields POST the fields there, in this window (challenge request, answers)
//   data-continue-url, -token, [data-method-url, -method-data]
//                              the authenticate page: run the issuer's method URL in a hidden
//                              frame for at most 10 s, then tell the gateway how it went
//   data-wait                  the page waiting for the payment to be decided (409): ask for it
//                              again every data-wait ms, load it once it answers otherwise
// The script never writes into the page's text; forms and the hidden frame are built with DOM
// calls only (Trusted Types).

import { httpUrl, resultUrl } from '../core/urls.ts';

/** How long the issuer's method URL may take before the authentication goes on without it (EMV 3DS: 10 s). */
export const METHOD_TIMEOUT_MS = 10_000;

/** threeDSCompInd: Y the method finished, N it did not within the time, U there was none. */
export type MethodOutcome = 'Y' | 'N' | 'U';

/** data-post-fields: a JSON object of strings (anything else is left out). */
export function fieldsOf(json: string | undefined): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(json ?? '{}');
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** POSTs `fields` as a form (application/x-www-form-urlencoded) to `action` in the window named `target`. */
export function postForm(doc: Document, action: string, fields: Record<string, string>, target: string): void {
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = action;
  form.target = target;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
}

/**
 * Runs the method URL in a hidden frame: Y when the frame reaches the gateway's notification
 * answer (a same-origin document with `data-threeds-method="done"`), N after `timeout`.
 */
export function runMethod(doc: Document, url: string, methodData: string, timeout = METHOD_TIMEOUT_MS): Promise<MethodOutcome> {
  return new Promise((resolve) => {
    const frame = doc.createElement('iframe');
    frame.name = 'pw-threeds-method';
    frame.title = '3-D Secure method';
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute('aria-hidden', 'true');
    const done = (outcome: MethodOutcome): void => {
      clearTimeout(timer);
      frame.removeEventListener('load', onLoad);
      resolve(outcome);
    };
    const onLoad = (): void => {
      // Another origin's document (the issuer's page) reads as null.
      if (frame.contentDocument?.documentElement.dataset.threedsMethod === 'done') done('Y');
    };
    const timer = setTimeout(() => done('N'), timeout);
    frame.addEventListener('load', onLoad);
    doc.body.append(frame);
    postForm(doc, url, { threeDSMethodData: methodData }, frame.name);
  });
}

/** Sends the top-level page to `url` (the page itself when the top may not be navigated from here). */
export function toTopLevel(win: Window, url: string): void {
  try {
    (win.top ?? win).location.href = url;
  } catch {
    win.location.href = url;
  }
}

/**
 * The page waits for the payment to be decided (its gateway answers it with 409 meanwhile): its
 * URL is asked for again every `interval` ms, and loaded once it answers otherwise (the end, a
 * redirect). The page stays as it is until then: reloaded, it went back to its top and a screen
 * reader read it again from there. Throttled (429) or unreachable, it asks again later.
 */
export async function waitForDecision(win: Window, interval: number): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, interval));
    const status = await win.fetch(win.location.href, { headers: { accept: 'text/html' }, redirect: 'manual', cache: 'no-store' }).then(
      (response) => response.status,
      () => 409,
    );
    if (status !== 409 && status !== 429) return win.location.reload();
  }
}

/** Does what the page's data attributes ask; resolves once the last navigation was started. */
export async function runPage(doc: Document = document, win: Window = window, timeout = METHOD_TIMEOUT_MS): Promise<MethodOutcome | void> {
  const data = doc.documentElement.dataset;
  // Forms go to http(s) only; the result may be an app's scheme (the gateway vetted it).
  const url = (name: string, check = httpUrl): string | undefined => (data[name] ? check(data[name], doc.baseURI) : undefined);
  const result = url('resultUrl', resultUrl);
  if (result) return toTopLevel(win, result);
  const post = url('postUrl');
  if (post) return postForm(doc, post, fieldsOf(data.postFields), '_self');
  if (data.wait) return waitForDecision(win, Number(data.wait) || 2000);
  const next = url('continueUrl');
  if (!next) return;
  const method = url('methodUrl');
  const outcome = method ? await runMethod(doc, method, data.methodData ?? '', timeout) : 'U';
  postForm(doc, next, { token: data.token ?? '', threeDSCompInd: outcome }, '_self');
  return outcome;
}

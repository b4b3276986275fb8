// Whether this page may send the top-level page elsewhere. A page framed in a sandbox without
// allow-top-navigation may not: a form posted to _top is then dropped without an error to catch
// (Chromium only logs it), and the shopper would wait on "Processing…" forever. Assigning a URL
// that cannot be parsed navigates nowhere, and Chromium checks the permission before the URL:
// SecurityError when forbidden, SyntaxError when allowed. A browser that checks the URL first
// answers "may", as before this check.
export function mayNavigateTop(win: Window = window): boolean {
  const top = win.top;
  if (!top || top === win) return true;
  try {
    top.location.href = 'http://[';
  } catch (error) {
    return !(error instanceof DOMException && error.name === 'SecurityError');
  }
  return true;
}

/**
 * Whether `href` is one of the gateway's 3-D Secure step pages (authentication, method, challenge,
 * completion), not the end of the challenge: the gateway's own result page, or the shop's.
 */
export function isChallengeStep(href: string, gatewayOrigin: string): boolean {
  const url = new URL(href);
  return url.origin === gatewayOrigin && url.pathname.startsWith('/v1/threeds/') && !url.pathname.endsWith('/result');
}

// Where paymentWidgets.js was loaded from (the gateway's origin, the checkoutId of its URL). A classic
// script is document.currentScript while it runs; a module script (<script type="module">) has none,
// so the last script element whose src is paymentWidgets.js stands for it.
const OWN_PATH = /\/paymentWidgets\.js$/;

export function ownScriptUrl(doc: Document = document): URL | undefined {
  const current = doc.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return new URL(current.src);
  // script.src is absolute (resolved by the browser); the path alone is compared, not the query.
  const own = [...doc.querySelectorAll<HTMLScriptElement>('script[src]')].reverse().find((script) => OWN_PATH.test(script.src.split(/[?#]/)[0]!));
  return own ? new URL(own.src) : undefined;
}

// Entry of dist/secure-frame.js, the script of the frame page /v1/frames/card. The page puts
// field, channel, origin, locale and checkoutId in data attributes on <html> (or the URL query).
import { readSettings, SecureField } from './secure-field.ts';

function start(): void {
  const settings = readSettings();
  // Only inside a frame, and only with a well-formed URL: otherwise there is nobody to talk to.
  if (!settings || window.parent === window) return;
  new SecureField(settings);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();

// Entry of dist/threeds.js, the script of the gateway's 3-D Secure pages (authenticate page,
// challenge request, completion page): see authentication.ts.
import { runPage } from './authentication.ts';

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void runPage(), { once: true });
else void runPage();

// 3-D Secure 2 browser data (docs/threeds-protocol.md): what the paying frame sends as
// customer.browser.*, and the challenge window the widget has room for. Pure functions; the
// frame passes in navigator, screen and the clock.

/** challengeWindow as the spec types it (N1): 1 250×400, 2 390×400, 3 500×600, 4 600×400, 5 full page. */
export type ChallengeWindow = '1' | '2' | '3' | '4' | '5';

/** Width and height of each framed challenge window, largest first (5, the full page, has none). */
export const CHALLENGE_SIZES: readonly (readonly [ChallengeWindow, number, number])[] = [
  ['3', 500, 600],
  ['4', 600, 400],
  ['2', 390, 400],
  ['1', 250, 400],
];

/** The largest challenge window that fits width × height; 5 (full page) when none does. */
export function challengeWindowFor(width: number, height: number): ChallengeWindow {
  return CHALLENGE_SIZES.find(([, w, h]) => w <= width && h <= height)?.[0] ?? '5';
}

/** Width and height of a framed challenge window, undefined for 5 (full page). */
export const challengeSize = (window: string): readonly [number, number] | undefined => {
  const size = CHALLENGE_SIZES.find(([code]) => code === window);
  return size && [size[1], size[2]];
};

export const isChallengeWindow = (value: unknown): value is ChallengeWindow => typeof value === 'string' && /^[1-5]$/.test(value);

/**
 * A language tag within the spec's 8 characters: the language and its first subtag, dropped when
 * too long ("de-CH-1996" → "de-CH", "zh-Hant-TW" → "zh-Hant", "en-Latn-US-x" → "en-Latn").
 */
export function languageTag(tag: string): string {
  const [language = '', subtag] = tag.split('-');
  const both = `${language}-${subtag}`;
  return subtag && both.length <= 8 ? both : language.slice(0, 8);
}

export interface BrowserEnvironment {
  navigator: { language: string; userAgent: string };
  screen: { width: number; height: number; colorDepth: number };
  now: Date;
}

/**
 * customer.browser.* of a payment. timezone is getTimezoneOffset(): minutes from local time to
 * UTC, positive when local time is behind UTC, as the spec defines it.
 */
export function browserFields(env: BrowserEnvironment, acceptHeader: string, challengeWindow: ChallengeWindow): Record<string, string> {
  const fields: Record<string, string> = {
    language: languageTag(env.navigator.language || 'en'),
    screenHeight: String(Math.round(env.screen.height)),
    screenWidth: String(Math.round(env.screen.width)),
    screenColorDepth: String(env.screen.colorDepth),
    timezone: String(env.now.getTimezoneOffset()),
    userAgent: env.navigator.userAgent.slice(0, 2048),
    javaEnabled: 'false',
    challengeWindow,
  };
  if (acceptHeader) fields.acceptHeader = acceptHeader.slice(0, 2048);
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [`customer.browser.${name}`, value]));
}

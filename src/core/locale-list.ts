// The widget's locales: English is in the bundle, every other one is a file of the build (i18n.ts).
// A module of its own, so that the service worker lists those files without taking any text along.
export const LOCALES = ['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt', 'sv', 'tr', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

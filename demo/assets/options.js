// The shop's widget options: an external file, because the page allows no inline script.
window.wpwlOptions = {
  locale: document.documentElement.lang || 'en',
  style: 'card',
  showCVVHint: true,
  brandDetection: true,
  // ?topLevel=1 on the shop page: the 3-D Secure challenge at the top level, not in the widget.
  threeDSecureAtTopLevel: new URLSearchParams(location.search).get('topLevel') === '1',
  // ?save=ask: a "Save for future payments" checkbox in the card and SEPA forms.
  registrations: { askToSave: new URLSearchParams(location.search).get('save') === 'ask' },
};

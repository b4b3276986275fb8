// The shop's widget options: an external file, because the page allows no inline script.
window.wpwlOptions = {
  locale: document.documentElement.lang || 'en',
  style: 'card',
  showCVVHint: true,
  brandDetection: true,
};

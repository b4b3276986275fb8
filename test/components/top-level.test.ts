import { expect } from '@open-wc/testing';
import { isChallengeStep, mayNavigateTop } from '../../src/widget/internal/top-level.ts';

/** A framed window whose top refuses (or takes) an href as Chromium does. */
const framed = (error: string) => {
  const assigned: string[] = [];
  const top = {
    location: {
      set href(url: string) {
        assigned.push(url);
        throw new DOMException('refused', error);
      },
    },
  };
  return { win: { top } as unknown as Window, assigned };
};

describe('mayNavigateTop', () => {
  it('answers no for a page framed in a sandbox without allow-top-navigation (SecurityError), without navigating', () => {
    const { win, assigned } = framed('SecurityError');
    expect(mayNavigateTop(win)).to.equal(false);
    expect(assigned).to.deep.equal(['http://[']);
  });

  it('answers yes when only the unparsable URL is refused (SyntaxError), and for the top-level page itself', () => {
    expect(mayNavigateTop(framed('SyntaxError').win)).to.equal(true);
    expect(mayNavigateTop(window)).to.equal(true);
  });
});

describe('isChallengeStep', () => {
  const gateway = 'https://pay.example';
  it('names the gateway\'s authentication, challenge and completion pages, which the widget never follows as the page', () => {
    for (const step of ['authenticate', 'method', 'method/notify', 'continue', 'challenge', 'cancel', 'complete']) {
      expect(isChallengeStep(`${gateway}/v1/threeds/abc/${step}`, gateway), step).to.equal(true);
    }
  });

  it('lets the end of a challenge through: the gateway\'s result page, the shop\'s page, and any page of another origin', () => {
    expect(isChallengeStep(`${gateway}/v1/threeds/abc/result`, gateway)).to.equal(false);
    expect(isChallengeStep(`${gateway}/result?id=1`, gateway)).to.equal(false);
    expect(isChallengeStep('https://shop.example/v1/threeds/abc/complete', gateway)).to.equal(false);
  });
});

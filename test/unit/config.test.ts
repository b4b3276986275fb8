// Settings from the environment: the defaults README's table lists.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settingsFromEnv } from '../../server/config.ts';

describe('settings from the environment', () => {
  it('listens on this machine only in test (its demo pays with a published token), on every interface in live, and where HOST says', () => {
    assert.equal(settingsFromEnv({}).host, '127.0.0.1');
    assert.equal(settingsFromEnv({ GATEWAY_ENV: 'test' }).host, '127.0.0.1');
    assert.equal(settingsFromEnv({ GATEWAY_ENV: 'live' }).host, '0.0.0.0');
    assert.equal(settingsFromEnv({ GATEWAY_ENV: 'test', HOST: '0.0.0.0' }).host, '0.0.0.0');
  });

  it('refuses an environment that is neither test nor live', () => {
    assert.throws(() => settingsFromEnv({ GATEWAY_ENV: 'prod' }), /GATEWAY_ENV must be test or live, not prod/);
  });
});

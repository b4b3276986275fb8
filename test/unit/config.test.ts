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

  it('believes X-Forwarded-* only from the proxies TRUST_PROXY names (none by default), and refuses what is no address', () => {
    assert.equal(settingsFromEnv({}).trustProxy, undefined);
    assert.equal(settingsFromEnv({ TRUST_PROXY: ' ' }).trustProxy, undefined);
    assert.deepEqual(settingsFromEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1']);
    assert.deepEqual(settingsFromEnv({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy, ['loopback', 'uniquelocal']);
    assert.throws(() => settingsFromEnv({ TRUST_PROXY: 'true' }), /TRUST_PROXY .*: true is neither/);
    assert.throws(() => settingsFromEnv({ TRUST_PROXY: '10.0.0.1, lb.example' }), /lb\.example is neither/);
    for (const bad of ['cafe', '0.0.0.0/0', '::/0', '10.0.0.0/33', '10.0.0.1/8/8', '300.1.1.1']) assert.throws(() => settingsFromEnv({ TRUST_PROXY: bad }), new RegExp(`${bad.replace(/[./]/g, '\\$&')} is neither`), bad);
    assert.deepEqual(settingsFromEnv({ TRUST_PROXY: 'fd00::/8' }).trustProxy, ['fd00::/8']);
  });
});

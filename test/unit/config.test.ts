// Settings from the environment: the defaults README's table lists.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMerchants, settingsFromEnv } from '../../server/config.ts';

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

  it('takes durations as whole milliseconds above 0 and refuses anything else by name (NaN would time every call out at once)', () => {
    const settings = settingsFromEnv({ ACQUIRER_TIMEOUT_MS: '15000', WEBHOOK_TIMEOUT_MS: ' 30000 ', SCHEDULE_LEASE_MS: '300000' });
    assert.equal(settings.acquirerTimeoutMs, 15000);
    assert.equal(settings.webhookTimeoutMs, 30000);
    assert.equal(settings.scheduleLeaseMs, 300000);
    assert.equal(settingsFromEnv({}).acquirerTimeoutMs, undefined);
    // A reservation's lease (2 minutes) must outlast the wait for its answer.
    assert.equal(settingsFromEnv({ ACQUIRER_TIMEOUT_MS: '60000' }).acquirerTimeoutMs, 60000);
    assert.throws(() => settingsFromEnv({ ACQUIRER_TIMEOUT_MS: '60001' }), /^Error: ACQUIRER_TIMEOUT_MS must be at most 60000 milliseconds, not 60001$/);
    // Node fires a timer above 2^31 - 1 ms at once.
    assert.equal(settingsFromEnv({ WEBHOOK_TIMEOUT_MS: '2147483647' }).webhookTimeoutMs, 2147483647);
    assert.throws(() => settingsFromEnv({ WEBHOOK_TIMEOUT_MS: '3000000000' }), /^Error: WEBHOOK_TIMEOUT_MS must be at most 2147483647 milliseconds, not 3000000000$/);
    for (const name of ['ACQUIRER_TIMEOUT_MS', 'WEBHOOK_POLL_MS', 'WEBHOOK_TIMEOUT_MS', 'SCHEDULE_POLL_MS', 'SCHEDULE_LEASE_MS']) {
      for (const bad of ['abc', '0', '-5', '1.5', '60s', '1e3']) {
        assert.throws(() => settingsFromEnv({ [name]: bad }), new RegExp(`^Error: ${name} must be a whole number of milliseconds above 0, not ${bad.replace('.', '\\.')}$`), `${name}=${bad}`);
      }
    }
  });

  it('takes MAX_IN_FLIGHT as a whole number above 0 (default: none set, the gateway\u2019s 1000) and refuses anything else by name', () => {
    assert.equal(settingsFromEnv({}).maxInFlight, undefined);
    assert.equal(settingsFromEnv({ MAX_IN_FLIGHT: ' 250 ' }).maxInFlight, 250);
    for (const bad of ['abc', '0', '-5', '1.5', '1e3', '1000000000']) {
      assert.throws(() => settingsFromEnv({ MAX_IN_FLIGHT: bad }), new RegExp(`^Error: MAX_IN_FLIGHT must be a whole number above 0, not ${bad.replace('.', '\\.')}$`), bad);
    }
  });
});

describe('the merchants file', () => {
  const withWebhook = (url: string) => ({
    merchants: [{ name: 'Shop', accessToken: 'a'.repeat(16), entities: [{ id: 'a'.repeat(32), name: 'Shop', brands: ['VISA'], webhooks: [{ url, secret: '0'.repeat(64) }] }] }],
  });

  it('takes webhook URLs of at most 2048 characters, as the API does (the outbox column: a longer one failed every payment of the entity on PostgreSQL)', () => {
    const base = 'https://shop.example/';
    assert.equal(parseMerchants(withWebhook(base + 'a'.repeat(2048 - base.length))).merchants[0]!.entities[0]!.webhooks[0]!.url.length, 2048);
    assert.throws(() => parseMerchants(withWebhook(base + 'a'.repeat(2049 - base.length))));
  });
});

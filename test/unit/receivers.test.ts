// Where a live gateway may send notifications: public addresses only, https only, checked on the
// URL when a webhook is registered and on the resolved addresses at each delivery.
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { isNonPublicAddress, liveDeliveryProblem, liveReceiverProblem } from '../../server/receivers.ts';

describe('isNonPublicAddress', () => {
  it('knows loopback, private, link-local, carrier-grade NAT, multicast and reserved addresses, IPv4 and IPv6', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '[::1]']) {
      assert.equal(isNonPublicAddress(address), true, address);
    }
  });

  it('judges an IPv6 address that carries an IPv4 one as that IPv4 address, and knows site-local, documentation and local NAT64', () => {
    const carrying = ['::127.0.0.1', '::7f00:1', '[::ffff:0:127.0.0.1]', '::ffff:0:a00:1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '2002:7f00:1::', '2002:c0a8:101::1', '::ffff:7f00:1'];
    for (const address of [...carrying, 'fec0::1', '64:ff9b:1::8.8.8.8', '2001:db8::1', '100::1']) assert.equal(isNonPublicAddress(address), true, address);
    for (const address of ['64:ff9b::808:808', '2002:808:808::1', '::ffff:0:8.8.8.8']) assert.equal(isNonPublicAddress(address), false, address);
  });

  it('knows the documentation networks (TEST-NET-1, -2, -3) and the 6to4 relay', () => {
    for (const address of ['192.0.2.2', '198.51.100.5', '203.0.113.5', '192.88.99.1', '::ffff:203.0.113.5']) assert.equal(isNonPublicAddress(address), true, address);
  });

  it('knows the addresses of this machine’s own interfaces, public ones included', (t) => {
    t.mock.method(os, 'networkInterfaces', () => ({
      eth0: [
        { address: '93.184.216.34', family: 'IPv4', netmask: '255.255.255.0', mac: '00:00:00:00:00:00', internal: false, cidr: '93.184.216.34/24' },
        { address: '2001:4860:4860::8844', family: 'IPv6', netmask: 'ffff:ffff:ffff:ffff::', mac: '00:00:00:00:00:00', internal: false, cidr: '2001:4860:4860::8844/64', scopeid: 0 },
      ],
    }));
    for (const address of ['93.184.216.34', '2001:4860:4860::8844', '::ffff:93.184.216.34']) assert.equal(isNonPublicAddress(address), true, address);
    assert.equal(isNonPublicAddress('93.184.216.35'), false);
  });

  it('lets public addresses and host names through (names are resolved at delivery)', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8', 'hooks.shop.example']) {
      assert.equal(isNonPublicAddress(address), false, address);
    }
  });
});

describe('liveReceiverProblem', () => {
  it('refuses plain http and hosts of the gateway’s own network', () => {
    assert.equal(liveReceiverProblem('http://hooks.shop.example/payments'), 'not an https URL');
    for (const url of ['https://[::127.0.0.1]/', 'https://[64:ff9b::7f00:1]/', 'https://[::ffff:0:127.0.0.1]/', 'https://[2002:7f00:1::]/', 'https://[fec0::1]/', 'https://localhost/x', 'https://localhost./x', 'https://api.localhost./x', 'https://printer.local./', 'https://api.localhost/x', 'https://printer.local/', 'https://metadata.google.internal/', 'https://127.0.0.1/x', 'https://[::1]:8443/x', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.7/hooks']) {
      assert.equal(liveReceiverProblem(url), 'not a public host', url);
    }
  });

  it('takes a public https receiver', () => {
    assert.equal(liveReceiverProblem('https://hooks.shop.example/payments?key=1'), undefined);
    assert.equal(liveReceiverProblem('https://93.184.216.34:8443/hooks'), undefined);
  });
});

describe('liveDeliveryProblem', () => {
  const resolving = (addresses: string[]) => async () => addresses;

  it('refuses a public name that resolves to any non-public address, or to none', async () => {
    assert.equal(await liveDeliveryProblem('https://hooks.shop.example/p', resolving(['10.0.0.5'])), 'resolves to a non-public address');
    assert.equal(await liveDeliveryProblem('https://hooks.shop.example/p', resolving(['93.184.216.34', '127.0.0.1'])), 'resolves to a non-public address');
    assert.equal(await liveDeliveryProblem('https://hooks.shop.example/p', resolving([])), 'not resolvable');
    assert.equal(await liveDeliveryProblem('https://hooks.shop.example/p', async () => Promise.reject(new Error('ENOTFOUND'))), 'not resolvable');
  });

  it('sends to a name that resolves to public addresses only, and checks the URL first', async () => {
    assert.equal(await liveDeliveryProblem('https://hooks.shop.example/p', resolving(['93.184.216.34', '2001:4860:4860::8888'])), undefined);
    assert.equal(await liveDeliveryProblem('http://hooks.shop.example/p', resolving(['93.184.216.34'])), 'not an https URL');
  });
});

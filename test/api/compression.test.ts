// Static answers compressed for browsers that take it (server/http/staticAnswer.ts): the built
// widget files as the build compressed them (name.br, name.gz), the OpenAPI document gzipped on
// first ask; the bytes a browser decodes are exactly those the integrity names.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startGateway, type TestGateway } from '../support/gateway.ts';

/** A GET whose body is left as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe('compressed static answers', () => {
  let gw: TestGateway;
  let stale: TestGateway;
  let staleDist: string;
  const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as { files: Record<string, { integrity: string }> };
  before(async () => {
    gw = await startGateway();
    // A build whose brotli copy of the widget no longer holds its bytes (edited by hand, half copied).
    staleDist = mkdtempSync(join(tmpdir(), 'gw-dist-'));
    cpSync('dist', staleDist, { recursive: true });
    writeFileSync(join(staleDist, 'paymentWidgets.js.br'), brotliCompressSync(Buffer.from('window.old = 1;'.repeat(200))));
    stale = await startGateway({ distDir: staleDist });
  });
  after(async () => {
    await gw.close();
    await stale.close();
    rmSync(staleDist, { recursive: true, force: true });
  });

  it('serves the widget as brotli or gzip as the browser takes it, decoding to exactly the bytes its integrity names, and says it varies', async () => {
    const url = `${gw.base}/v1/paymentWidgets.js`;
    const plain = await rawGet(url, {});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.equal(sri(plain.body), manifest.files['paymentWidgets.js']!.integrity);

    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.ok(br.body.length < plain.body.length / 2.5, `${br.body.length} of ${plain.body.length}`);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.equal(br.headers.etag, `"${manifest.files['paymentWidgets.js']!.integrity}+br"`);

    const gzip = await rawGet(url, { 'accept-encoding': 'br;q=0, gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gzip.body), plain.body);
    assert.equal((await rawGet(url, { 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);

    // The frame script and a locale's texts alike.
    const frame = await rawGet(`${gw.base}/v1/frames/secure-frame.js`, { 'accept-encoding': 'br' });
    assert.equal(sri(brotliDecompressSync(frame.body)), manifest.files['secure-frame.js']!.integrity);
    const german = await rawGet(`${gw.base}/v1/locales/de.json`, { 'accept-encoding': 'br' });
    assert.equal(sri(brotliDecompressSync(german.body)), manifest.files['locales/de.json']!.integrity);
  });

  it('answers 304 to a tag of any coding of the same bytes', async () => {
    const url = `${gw.base}/v1/paymentWidgets.js`;
    const tag = (await rawGet(url, { 'accept-encoding': 'br' })).headers.etag as string;
    for (const [sent, accept] of [[tag, 'br'], [tag, ''], [tag.replace('+br', ''), 'br'], [tag.replace('+br', '+gzip'), 'gzip']] as const) {
      const answer = await rawGet(url, { 'if-none-match': sent, 'accept-encoding': accept });
      assert.equal(answer.status, 304, `${sent} ${accept}`);
      assert.equal(answer.headers['content-encoding'], undefined, 'a 304 has no body to code');
    }
    assert.equal((await rawGet(url, { 'if-none-match': '"sha384-other+br"', 'accept-encoding': 'br' })).status, 200);
  });

  it('gzips the OpenAPI document (770 kB of JSON) on first ask', async () => {
    const plain = await rawGet(`${gw.base}/v1/openapi.json`, {});
    const gzip = await rawGet(`${gw.base}/v1/openapi.json`, { 'accept-encoding': 'gzip, br' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gzip.body.length < plain.body.length / 5, `${gzip.body.length} of ${plain.body.length}`);
    assert.deepEqual(gunzipSync(gzip.body), plain.body);
  });

  it('never serves a compressed copy that does not hold the file\u2019s bytes: gzip made from the file instead', async () => {
    const plain = await rawGet(`${stale.base}/v1/paymentWidgets.js`, {});
    const answer = await rawGet(`${stale.base}/v1/paymentWidgets.js`, { 'accept-encoding': 'br, gzip' });
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(answer.body), plain.body);
  });
});

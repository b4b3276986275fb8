// Card numbers and security codes never reach the disk or a log line: after a set of payments,
// registrations, a validation failure and idempotent requests, every file of the data directory
// (database, WAL and shared memory, before and after a checkpoint) and every captured log line is
// searched for the clear values. Registration numbers are kept only as vault ciphertext.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { loggerOptions } from '../../server/http/log.ts';
import { fakeDist } from '../support/checkouts.ts';
import { cardDebit, shopA, startGateway, type TestGateway } from '../support/gateway.ts';
import { billingAddress, browserData, ShopperBrowser } from '../support/threeds.ts';

/** Every card number the test sends, with the security code sent along with it. */
const cards = {
  visa: { number: '4200000000000000', cvv: '123', brand: 'VISA' },
  master: { number: '5200000000000007', cvv: '456', brand: 'MASTER' },
  amex: { number: '377777777777770', cvv: '1234', brand: 'AMEX' },
  visaNotEnrolled: { number: '4012001037141112', cvv: '789', brand: 'VISA' },
  masterRegistered: { number: '5457350076543210', cvv: '321', brand: 'MASTER' },
  visaDeleted: { number: '4200000000000109', cvv: '852', brand: 'VISA' },
  masterIdempotent: { number: '5200000000000023', cvv: '654', brand: 'MASTER' },
  visaInvalidCvv: { number: '4200000000000091', cvv: '4567', brand: 'VISA' },
  visaJson: { number: '4200000000000042', cvv: '963', brand: 'VISA' },
  visaBadJson: { number: '4012001037461114', cvv: '741', brand: 'VISA' },
  registrationPaymentCvv: { number: '', cvv: '159', brand: '' },
  masterChallenge: { number: '5200000000000015', cvv: '369', brand: 'MASTER' },
};
const numbers = Object.values(cards)
  .map((c) => c.number)
  .filter((n) => n !== '');
const cvvs = Object.values(cards).map((c) => c.cvv);

/** The forms in which a security code would show up: a JSON value or a form field. */
function cvvForms(cvv: string): string[] {
  return [`"${cvv}"`, `card.cvv=${cvv}`, `card.cvv":"${cvv}`, `"cvv":"${cvv}"`];
}

/** Every forbidden string found in `text`, for a readable assertion message. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const number of numbers) if (text.includes(number)) found.push(number);
  for (const cvv of cvvs) for (const form of cvvForms(cvv)) if (text.includes(form)) found.push(form);
  return found;
}

const card = (c: { number: string; cvv: string; brand: string }) => ({
  paymentBrand: c.brand,
  'card.number': c.number,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': c.cvv,
});

/** The raw bytes of every file in the directory, as latin1 text so that any byte sequence can be searched. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out.set(name, readFileSync(path).toString('latin1'));
  }
  return out;
}

describe('card data is never written to disk or to the log', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-card-data-'));
  const logLines: string[] = [];
  let gw: TestGateway;
  let closed = false;
  const registrations: Array<{ id: string; number: string }> = [];
  let deletedRegistrationId = '';
  let deletedCiphertext = '';
  const snapshots: Array<{ stage: string; files: Map<string, string> }> = [];
  let dist: { dir: string };

  before(async () => {
    // The application's own logger options, so the real redaction is in force, at the most verbose level.
    const logger = pino(loggerOptions('trace'), {
      write(chunk: string) {
        logLines.push(...chunk.split('\n').filter((line) => line.length > 0));
      },
    });
    dist = fakeDist({ later: true });
    gw = await startGateway({ logger, dataDir, distDir: dist.dir });

    const expectOk = (reply: { status: number; body: any }, what: string) => {
      assert.equal(reply.status, 200, `${what}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.result.code, '000.100.110', what);
    };

    // Card debits with several test cards, a 4-digit AMEX security code among them.
    for (const c of [cards.visa, cards.master, cards.amex]) {
      expectOk(await gw.client.post('/v1/payments', cardDebit(card(c))), `debit ${c.brand}`);
    }

    // A preauthorization that stores a registration, then a capture of it.
    const pa = await gw.client.post('/v1/payments', cardDebit({ ...card(cards.visaNotEnrolled), paymentType: 'PA', createRegistration: 'true' }));
    expectOk(pa, 'PA with createRegistration');
    registrations.push({ id: pa.body.registrationId, number: cards.visaNotEnrolled.number });
    expectOk(await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' }), 'capture');

    // A card stored through POST /v1/registrations (security code sent too), then paid with twice.
    const stored = await gw.client.post('/v1/registrations', card(cards.masterRegistered));
    expectOk(stored, 'registration');
    registrations.push({ id: stored.body.id, number: cards.masterRegistered.number });
    for (const amount of ['10.00', '11.00']) {
      expectOk(
        await gw.client.post(`/v1/registrations/${stored.body.id}/payments`, { amount, currency: 'EUR', paymentType: 'DB', 'card.cvv': cards.registrationPaymentCvv.cvv }),
        'registration payment',
      );
    }

    // A registration that is deleted again.
    const doomed = await gw.client.post('/v1/registrations', card(cards.visaDeleted));
    expectOk(doomed, 'registration to delete');
    deletedRegistrationId = doomed.body.id;
    const doomedRow = await gw.running.store.db.selectFrom('registrations').select('secret').where('id', '=', deletedRegistrationId).executeTakeFirstOrThrow();
    deletedCiphertext = doomedRow.secret!.slice('v1:'.length);
    expectOk(await gw.client.delete(`/v1/registrations/${deletedRegistrationId}`), 'delete registration');

    // Idempotent requests: the first answer is stored and replayed.
    const idempotent = cardDebit(card(cards.masterIdempotent));
    const first = await gw.client.post('/v1/payments', idempotent, { 'idempotency-key': 'card-data-1' });
    expectOk(first, 'idempotent debit');
    const replay = await gw.client.post('/v1/payments', idempotent, { 'idempotency-key': 'card-data-1' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, first.body.id);

    // A validation failure with a bad security code (4 digits for VISA), sent with an Idempotency-Key
    // so that its stored answer is on disk as well.
    const invalid = await gw.client.post('/v1/payments', cardDebit(card(cards.visaInvalidCvv)), { 'idempotency-key': 'card-data-2' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.result.code, '100.100.601');
    assert.deepEqual(invalid.body.result.parameterErrors, [{ name: 'card.cvv', value: '****', message: 'card.cvv must be 3 digits for VISA' }]);

    // The same data as JSON, and a JSON body that cannot be parsed.
    const headers = { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/json' };
    const json = await fetch(`${gw.base}/v1/payments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ entityId: shopA.entityId, ...cardDebit(card(cards.visaJson)) }),
    });
    assert.equal(json.status, 200);
    // entityId in the query: the broken body cannot name it.
    const broken = await fetch(`${gw.base}/v1/payments?entityId=${shopA.entityId}`, {
      method: 'POST',
      headers,
      body: `{"entityId":"${shopA.entityId}","card.number":"${cards.visaBadJson.number}","card.cvv":"${cards.visaBadJson.cvv}",`,
    });
    assert.equal(broken.status, 400);
    const brokenBody = (await broken.json()) as { result: { code: string; parameterErrors: unknown } };
    assert.equal(brokenBody.result.code, '200.300.404');
    assert.deepEqual(brokenBody.result.parameterErrors, [{ name: 'body', value: '', message: 'body is not valid JSON' }]);

    // 3-D Secure challenges: one left pending (its card sealed in its step), one approved (the seal wiped).
    const threeds = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    const pending = await threeds.post('/v1/payments', cardDebit({ ...card(cards.masterChallenge), shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress }));
    assert.equal(pending.body.result.code, '000.200.000', JSON.stringify(pending.body));
    const approved = await threeds.post('/v1/payments', cardDebit({ ...card(cards.masterChallenge), shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress }));
    const shopperBrowser = new ShopperBrowser(gw.base);
    await shopperBrowser.finish(await shopperBrowser.toChallenge(approved.body.redirect), 'approve');
    expectOk(await threeds.get(`/v1/payments/${approved.body.id}`), 'payment after the challenge');

    // The files while the gateway runs (pages in the WAL), then after a full checkpoint (pages in the database file).
    snapshots.push({ stage: 'before checkpoint', files: filesOf(dataDir) });
    const [checkpoint] = (await sql<{ busy: number; log: number; checkpointed: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(gw.running.store.db)).rows;
    assert.equal(checkpoint!.busy, 0);
    snapshots.push({ stage: 'after checkpoint', files: filesOf(dataDir) });
  });

  after(async () => {
    if (!closed) await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(dist.dir, { recursive: true, force: true });
  });

  it('the WAL held the written pages before the checkpoint and the database file after it', () => {
    const [beforeCheckpoint, afterCheckpoint] = snapshots;
    assert.ok((beforeCheckpoint!.files.get('gateway.sqlite-wal')?.length ?? 0) > 0, 'the WAL was empty before the checkpoint');
    assert.equal(afterCheckpoint!.files.get('gateway.sqlite-wal')?.length ?? 0, 0);
    // The payments are in the database file itself now: a payment's masked card is found there.
    assert.ok(afterCheckpoint!.files.get('gateway.sqlite')!.includes('"bin":"377777","last4Digits":"7770"'));
  });

  it('registrations keep the number only as vault ciphertext that opens back to it', async () => {
    const vault = gw.running.gateway.deps.vault;
    assert.equal(registrations.length, 2);
    for (const { id, number } of registrations) {
      const row = await gw.running.store.db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'active');
      assert.equal(row.entity_id, shopA.entityId);
      assert.ok(row.secret !== null);
      assert.notEqual(row.secret, number);
      assert.equal(row.secret.includes(number), false);
      assert.match(row.secret, /^v1:[A-Za-z0-9+/]+=*$/);
      assert.equal(vault.open(row.secret, `${shopA.entityId}:${id}`), number);
      // Bound to its registration: under another registration's context it does not open.
      assert.throws(() => vault.open(row.secret!, `${shopA.entityId}:${registrations.find((r) => r.id !== id)!.id}`));
      assert.deepEqual(JSON.parse(row.details).card, { bin: number.slice(0, 6), last4Digits: number.slice(-4), holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
    }
  });

  it("a deleted registration's ciphertext is gone (null), its masked card stays", async () => {
    const row = await gw.running.store.db.selectFrom('registrations').selectAll().where('id', '=', deletedRegistrationId).executeTakeFirstOrThrow();
    assert.equal(row.status, 'deleted');
    assert.equal(row.secret, null);
    assert.deepEqual(JSON.parse(row.details).card, { bin: '420000', last4Digits: '0109', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
  });

  it("the data directory's files are the gateway user's only (no group or other permission), the database, its WAL and shared memory as the card key", () => {
    const modes = Object.fromEntries(['gateway.sqlite', 'gateway.sqlite-wal', 'gateway.sqlite-shm', 'card.key'].map((name) => [name, (statSync(join(dataDir, name)).mode & 0o777).toString(8)]));
    assert.deepEqual(modes, { 'gateway.sqlite': '600', 'gateway.sqlite-wal': '600', 'gateway.sqlite-shm': '600', 'card.key': '600' });
  });

  it('no file of the data directory holds a card number or a security code, before or after the checkpoint and after closing', async () => {
    await gw.close();
    closed = true;
    snapshots.push({ stage: 'after close', files: filesOf(dataDir) });
    const seen = new Set<string>();
    for (const { stage, files } of snapshots) {
      for (const [name, content] of files) {
        seen.add(name);
        assert.deepEqual(leaks(content), [], `${name} (${stage})`);
      }
    }
    for (const name of ['gateway.sqlite', 'gateway.sqlite-wal', 'gateway.sqlite-shm']) assert.ok(seen.has(name), `${name} was never read`);
    // The deleted registration's ciphertext is not left behind in the database file once checkpointed.
    assert.ok(deletedCiphertext.length > 40);
    for (const { stage, files } of snapshots.slice(1)) assert.equal(files.get('gateway.sqlite')!.includes(deletedCiphertext), false, stage);
  });

  it('no captured log line holds a card number or a security code', () => {
    // The log did capture the traffic: one line for each of the 25 requests (15, then 10 of the
    // 3-D Secure challenges: two payments, the shopper's seven pages, one read).
    const requestLines = logLines.map((line) => JSON.parse(line) as { msg?: string; url?: string; reqId?: string }).filter((entry) => entry.msg === 'request');
    assert.equal(requestLines.length, 25);
    // Each names its request, and no two the same.
    assert.equal(new Set(requestLines.map((line) => line.reqId)).size, 25);
    for (const line of logLines) assert.deepEqual(leaks(line), [], line);
  });
});

describe('log scrubbing at any depth', () => {
  it('censors card fields nested deep in a logged object and digit runs in messages', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = pino(loggerOptions('info'), sink);
    logger.info({ request: { body: { params: { 'card.number': '4200000000000000', card: { cvv: '123', number: '5200000000000007' } } } } }, 'body 4012001037141112 seen');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    for (const secret of ['4200000000000000', '5200000000000007', '4012001037141112', '"123"']) assert.equal(text.includes(secret), false, secret);
    assert.match(text, /\[redacted\]/);
    assert.match(text, /\*\*\*\*1112/);
  });

  it('masks a digit run however long, and leaves whole the ids whose hex holds a long digit run', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = pino(loggerOptions('info'), sink);
    const id = '796358074066988c33bed3d1e411f081';
    logger.info({ notification: id, receiver: `https://shop.example/hooks/${id}` }, 'sent 42000000000000001234 and 4200-0000-0000-0000');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    assert.equal(text.split(id).length - 1, 2, text);
    assert.equal(text.includes('42000000000000001234'), false);
    assert.match(text, /sent \*\*\*\*1234 and \*\*\*\*0000'?"/);
  });
});

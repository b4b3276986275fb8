// npm start: the gateway and, in the test environment, the demo on one port; embedded SQLite by default.
import { demoShop } from '../demo/shop.ts';
import { settingsFromEnv } from './config.ts';
import { createGateway } from './gateway.ts';

const settings = settingsFromEnv();
const running = await createGateway(settings);
const demo = running.gateway.merchants.merchants[0]!;
const entity = demo.entities[0]!;
// The demo shop acts for the first merchant with its token and no login of its own: in live it
// would let anyone who reaches it pay with that merchant's account, so it exists in test only.
const withDemo = settings.env === 'test';

// The demo shop lives on the same port; its server talks to the gateway over HTTP like any shop.
let gatewayUrl = '';
if (withDemo) await running.app.register(demoShop, { gatewayUrl: () => gatewayUrl, token: demo.accessToken, entityId: entity.id });
// Connections waiting to be accepted: Node's default of 511 overflowed when a few thousand clients
// connected at once (a busy turn of the event loop accepts them only between requests), and the
// kernel dropped the rest, whose clients sent again after 1, 3, 7, 15 … s: tens of seconds to a
// first answer, or a reset, while the gateway had room. Accepted, they are answered, or refused at
// once with 503 when it has none (http/admission.ts). Linux takes at most net.core.somaxconn.
const LISTEN_BACKLOG = 4096;
const address = await running.app.listen({ port: settings.port, host: settings.host, backlog: LISTEN_BACKLOG });
gatewayUrl = `http://127.0.0.1:${running.app.server.address() && typeof running.app.server.address() === 'object' ? (running.app.server.address() as { port: number }).port : settings.port}`;
const base = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
console.log(`
Payment gateway (${settings.env}) on ${base}, store: ${settings.databaseUrl ? 'PostgreSQL' : `SQLite in ${settings.dataDir}`}
OpenAPI 3.1: ${base}/v1/openapi.json`);
if (withDemo) {
  console.log(`Demo shop:  ${base}/   playground: ${base}/playground   API reference: ${base}/reference
Demo merchant "${demo.name}"
  entityId:     ${entity.id}
  access token: ${demo.accessToken}
Try a debit:
  curl ${base}/v1/payments -H "Authorization: Bearer ${demo.accessToken}" \\
    -d entityId=${entity.id} -d amount=92.00 -d currency=EUR -d paymentBrand=VISA -d paymentType=DB \\
    -d card.number=4200000000000000 -d card.holder="Jane Jones" -d card.expiryMonth=05 -d card.expiryYear=2034 -d card.cvv=123
`);
} else {
  console.log('Live: no demo shop or playground is served.\n');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}

// npm start: the gateway and the demo on one port, test environment, embedded SQLite by default.
import { demoShop } from '../demo/shop.ts';
import { settingsFromEnv } from './config.ts';
import { createGateway } from './gateway.ts';

const settings = settingsFromEnv();
const running = await createGateway(settings);
const demo = running.gateway.merchants.merchants[0]!;
const entity = demo.entities[0]!;

// The demo shop lives on the same port; its server talks to the gateway over HTTP like any shop.
let gatewayUrl = '';
await running.app.register(demoShop, { gatewayUrl: () => gatewayUrl, token: demo.accessToken, entityId: entity.id });
const address = await running.app.listen({ port: settings.port, host: settings.host });
gatewayUrl = `http://127.0.0.1:${running.app.server.address() && typeof running.app.server.address() === 'object' ? (running.app.server.address() as { port: number }).port : settings.port}`;
const base = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
console.log(`
Payment gateway (${settings.env}) on ${base}, store: ${settings.databaseUrl ? 'PostgreSQL' : `SQLite in ${settings.dataDir}`}
Demo shop:  ${base}/   playground: ${base}/playground
API reference: ${base}/reference   OpenAPI 3.1: ${base}/v1/openapi.json
Demo merchant "${demo.name}"
  entityId:     ${entity.id}
  access token: ${demo.accessToken}
Try a debit:
  curl ${base}/v1/payments -H "Authorization: Bearer ${demo.accessToken}" \\
    -d entityId=${entity.id} -d amount=92.00 -d currency=EUR -d paymentBrand=VISA -d paymentType=DB \\
    -d card.number=4200000000000000 -d card.holder="Jane Jones" -d card.expiryMonth=05 -d card.expiryYear=2034 -d card.cvv=123
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}

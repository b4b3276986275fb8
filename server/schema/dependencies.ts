// The rules across fields that make one parameter need another, as JSON Schema dependentRequired
// for the OpenAPI document; flat.ts adds the structural ones (card.holder needs card.number). The
// checks themselves live with their groups (customer.ts › checkCustomer, contact.ts › streetRules,
// threeDSecure.ts › checkThreeDSecure, wallets.ts › checkWallet); test/api/openapi.test.ts holds
// each pair listed here to what the gateway refuses.
import type { FlatParam } from './flat.ts';
import { ACCOUNT_GROUPS } from './requests.ts';
import { DECRYPTED_WALLET_FIELDS, WALLETS } from './wallets.ts';

/** Device groups of customer: they describe the shopper's device and call for no name. */
const CUSTOMER_NAMED = /^customer\.(?!browser\.|app\.)/;

/** For a body of these flat names: each name that needs others, and the names it needs. */
export function crossFieldDependencies(names: readonly string[]): Record<string, string[]> {
  const present = new Set(names);
  const out: Record<string, string[]> = {};
  const needs = (name: string, needed: string[]) => {
    if (present.has(name) && needed.every((n) => present.has(n))) out[name] = [...new Set([...(out[name] ?? []), ...needed])];
  };
  for (const name of names) {
    // givenName and surname come with any other customer parameter (and with each other).
    if (CUSTOMER_NAMED.test(name)) needs(name, ['customer.givenName', 'customer.surname'].filter((n) => n !== name));
    const address = /^(.+)\.houseNumber2$/.exec(name);
    if (address) needs(name, [`${address[1]}.houseNumber1`]);
  }
  needs('customer.identificationDocType', ['customer.identificationDocId']);
  needs('customer.identificationDocId', ['customer.identificationDocType']);
  needs('threeDSecure.exemptionFlag', ['threeDSecure.challengeIndicator']);
  for (const wallet of WALLETS) needs(`${wallet}.source`, [...DECRYPTED_WALLET_FIELDS]);
  return out;
}

type JsonSchema = Record<string, unknown>;

/** A nested name present: each object on its path requires the next member (declared, for strict validators). */
function present(path: string[]): JsonSchema {
  const [first, ...rest] = path;
  return { required: [first], properties: { [first!]: rest.length ? { type: 'object', ...present(rest) } : true } };
}

/**
 * The same rules in a body's nested JSON form, on the object that holds both names:
 * customer.browserFingerprint.id needing customer.givenName is customer's
 * dependentRequired { browserFingerprint: [givenName] }. A pair across groups (applePay.source
 * needing card.number) is an if/then of the root.
 */
export function addNestedDependencies(nested: JsonSchema, dependencies: Record<string, string[]>): void {
  for (const [name, needs] of Object.entries(dependencies)) {
    const path = name.split('.');
    const across: string[][] = [];
    for (const need of needs) {
      const needPath = need.split('.');
      const parent = needPath.slice(0, -1);
      if (path.length <= parent.length || parent.some((segment, i) => path[i] !== segment)) {
        across.push(needPath);
        continue;
      }
      let node: JsonSchema | undefined = nested;
      for (const segment of parent) node = (node?.properties as Record<string, JsonSchema> | undefined)?.[segment];
      if (!node?.properties) continue;
      const key = path[parent.length]!;
      const listed = ((node.dependentRequired ??= {}) as Record<string, string[]>);
      listed[key] = [...new Set([...(listed[key] ?? []), needPath.at(-1)!])];
    }
    if (across.length) ((nested.allOf ??= []) as JsonSchema[]).push({ if: present(path), then: { allOf: across.map(present) } });
  }
}

/** A capture, refund or rebill names its amount and currency; a reversal takes what is left (requests.ts › parseReferencing). */
export const referencingAmountRule = {
  if: { properties: { paymentType: { not: { const: 'RV' } } }, required: ['paymentType'] },
  // The properties are the body's own (repeated so that strict validators see them defined here).
  then: { properties: { amount: true, currency: true }, required: ['amount', 'currency'] },
};

/**
 * Exactly one account (requests.ts › accountOf): an account group, known by the members it always
 * has (card.number, bankAccount.holder …), or a wallet's encrypted token. A wallet's decrypted card
 * is card.*. As oneOf for the flat body and for its nested JSON, with a description.
 */
export function accountRule(params: readonly FlatParam[]): { flat: JsonSchema; nested: JsonSchema; description: string } {
  const names = new Set(params.map((p) => p.name));
  const declared = (required: string[]) => ({ required, properties: Object.fromEntries(required.map((name) => [name, true])) });
  const groups = Object.keys(ACCOUNT_GROUPS)
    .map((group) => ({ group, members: params.filter((p) => p.requiredWith === group).map((p) => p.name) }))
    .filter(({ members }) => members.length > 0);
  const tokens = WALLETS.filter((wallet) => names.has(`${wallet}.paymentToken`));
  const description = `Exactly one account: ${[...groups.map(({ group }) => `${group}.*`), ...(tokens.length ? [`a wallet's encrypted token (${tokens.map((w) => `${w}.paymentToken`).join(', ')})`] : [])].join(', ')}.${tokens.length ? " A wallet's decrypted card data (<wallet>.source) is card.*." : ''} Two accounts are refused.`;
  return {
    flat: { oneOf: [...groups.map(({ members }) => declared(members)), ...tokens.map((wallet) => declared([`${wallet}.paymentToken`]))] },
    nested: {
      oneOf: [
        ...groups.map(({ group }) => declared([group])),
        ...tokens.map((wallet) => ({ required: [wallet], properties: { [wallet]: { type: 'object', ...declared(['paymentToken']) } } })),
      ],
    },
    description,
  };
}

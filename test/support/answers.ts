// Answers held against the OpenAPI document's response schemas (components.schemas), as
// test/api/openapi.test.ts does, for the tests of other endpoints.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openapiDocument } from '../../server/http/openapi.ts';

/** check(name, body): the errors of the body against components.schemas[name]; [] when it matches. */
export function answerChecker(): (name: string, body: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addVocabulary(['x-group', 'x-flatName', 'x-requiredWith', 'x-enumDescriptions', 'x-enumGroups', 'x-groups']);
  const doc = openapiDocument({ env: 'test' }) as { components: { schemas: Record<string, unknown> } };
  const schemas = JSON.parse(JSON.stringify(doc.components.schemas).replace(/"#\/components\/schemas\/([A-Za-z]+)"/g, '"$1"')) as Record<string, object>;
  for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, name);
  return (name, body) => {
    const check = ajv.getSchema(name)!;
    return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };
}

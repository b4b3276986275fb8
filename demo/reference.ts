// The API reference page: the gateway's OpenAPI document (GET /v1/openapi.json) as HTML, by
// endpoint and, within each request body, by parameter group. Everything comes from the document;
// nothing about a parameter is written here. Plain HTML under the shop's strict policy: no script,
// no inline style (<details> opens and closes the groups).
import { escape, layout } from './pages.ts';

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const METHODS = ['get', 'post', 'delete'] as const;

/** A $ref of the document, resolved (#/components/…). */
function resolve(doc: Json, node: unknown): Json {
  if (!isObject(node) || typeof node.$ref !== 'string') return isObject(node) ? node : {};
  let target: unknown = doc;
  for (const part of node.$ref.replace(/^#\//, '').split('/')) target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObject(target) ? target : {};
}

const refName = (node: unknown): string => (isObject(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop()! : '');

export interface ParameterRow {
  name: string;
  type: string;
  length: string;
  rule: string;
  required: string;
  description: string;
}

/** A parameter's schema as the columns of the reference. */
export function parameterRow(name: string, schema: Json, required: boolean): ParameterRow {
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const length = min !== undefined && min === max ? `exactly ${min}` : min !== undefined && max !== undefined ? (min <= 1 ? `up to ${max}` : `${min}\u2013${max}`) : max !== undefined ? `up to ${max}` : min ? `at least ${min}` : '';
  const rule = Array.isArray(schema.enum)
    ? schema.enum.map((v) => `<code>${escape(String(v))}</code>`).join(' ')
    : typeof schema.pattern === 'string'
      ? `<code>${escape(schema.pattern)}</code>`
      : '';
  const requiredWith = text(schema['x-requiredWith']);
  return {
    name,
    type: text(schema.type) || 'string',
    length,
    rule,
    required: required ? 'yes' : requiredWith ? (requiredWith.endsWith(']') ? `in each ${escape(requiredWith)}` : `with ${escape(requiredWith)}.*`) : '',
    description: escape(text(schema.description)),
  };
}

function table(rows: ParameterRow[], first = 'Parameter'): string {
  const body = rows
    .map((r) => `<tr><td><code>${escape(r.name)}</code></td><td>${escape(r.type)}</td><td>${r.length}</td><td>${r.rule}</td><td>${r.required}</td><td>${r.description}</td></tr>`)
    .join('\n');
  return `<table class="data params"><thead><tr><th>${first}</th><th>Type</th><th>Length</th><th>Pattern or values</th><th>Required</th><th>Description</th></tr></thead><tbody>
${body}
</tbody></table>`;
}

/** A flat body's parameters by group, in the document's order. */
function bodyGroups(schema: Json): string {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const groups = new Map<string, ParameterRow[]>();
  const add = (name: string, property: unknown) => {
    if (!isObject(property)) return;
    const group = text(property['x-group']);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push(parameterRow(name, property, required.has(name)));
  };
  for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) add(name, property);
  for (const property of Object.values(isObject(schema.patternProperties) ? schema.patternProperties : {})) add(text((property as Json)['x-flatName']), property);
  // The basic fields first, then the groups in the order they first appear.
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))
    .map(([group, rows]) => {
      const title = group === '' ? 'Basic parameters' : `${group}.*`;
      return `<details class="group"${group === '' ? ' open' : ''}><summary>${escape(title)} <span class="count">${rows.length} parameter${rows.length === 1 ? '' : 's'}</span></summary>
${table(rows)}
</details>`;
    })
    .join('\n');
}

function requestBody(doc: Json, operation: Json): string {
  const body = resolve(doc, operation.requestBody);
  const content = isObject(body.content) ? body.content : {};
  const form = isObject(content['application/x-www-form-urlencoded']) ? content['application/x-www-form-urlencoded'] : undefined;
  if (!form || !isObject(form.schema)) return '';
  const variants = Array.isArray(form.schema.oneOf) ? form.schema.oneOf : [form.schema];
  const types = Object.keys(content).map((type) => `<code>${escape(type)}</code>`).join(', ');
  return `<h4>Body</h4>
<p class="hint">${types}; flat names: <code>[n]</code> from 0, <code>[key]</code> a name.</p>
${variants
  .map((variant) => {
    const schema = resolve(doc, variant);
    return `${variants.length > 1 ? `<h5>${escape(text(schema.title))}</h5>\n` : ''}${bodyGroups(schema)}`;
  })
  .join('\n')}`;
}

function parameters(doc: Json, operation: Json): string {
  const list = (Array.isArray(operation.parameters) ? operation.parameters : []).map((p) => resolve(doc, p));
  if (!list.length) return '';
  const rows = list.map((p) => {
    const row = parameterRow(text(p.name), { ...(isObject(p.schema) ? p.schema : {}), description: p.description }, p.required === true);
    return { ...row, name: text(p.name), type: `${row.type} (${text(p.in)})` };
  });
  return `<h4>Path, query and headers</h4>\n${table(rows, 'Name')}`;
}

function responses(doc: Json, operation: Json): string {
  const items = Object.entries(isObject(operation.responses) ? operation.responses : {}).map(([status, value]) => {
    const r = resolve(doc, value);
    const content = isObject(r.content) ? r.content : {};
    const kinds = Object.entries(content).map(([type, media]) => {
      const schema = isObject(media) ? media.schema : undefined;
      const names = isObject(schema) && Array.isArray(schema.anyOf) ? schema.anyOf.map(refName) : [refName(schema)];
      const named = names.filter(Boolean);
      return named.length ? named.map((n) => `<a href="#schema-${escape(n)}"><code>${escape(n)}</code></a>`).join(' or ') : `<code>${escape(type)}</code>`;
    });
    return `<dt>${escape(status)}</dt><dd>${escape(text(r.description))}${kinds.length ? ` \u2014 ${kinds.join(', ')}` : ''}</dd>`;
  });
  return `<h4>Responses</h4>\n<dl class="responses">${items.join('')}</dl>`;
}

/**
 * An answer's fields as dotted names (result.code, card.bin, redirect.parameters[n].name), as the
 * spec's response table writes them; "required" is relative to the nearest optional part, as for
 * request parameters.
 */
export function answerRows(schema: Json, prefix = '', scope?: string, present = true): ParameterRow[] {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows: ParameterRow[] = [];
  for (const [field, value] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (!isObject(value)) continue;
    const name = prefix ? `${prefix}.${field}` : field;
    const always = required.has(field) && present;
    const childScope = required.has(field) ? scope : name;
    const items = value.type === 'array' && isObject(value.items) ? value.items : undefined;
    if (isObject(value.properties) && Object.keys(value.properties).length) {
      rows.push(...answerRows(value, name, childScope, always));
    } else if (items && isObject(items.properties) && Object.keys(items.properties).length) {
      rows.push(...answerRows(items, `${name}[n]`, `${name}[n]`, false));
    } else {
      const requiredWith = required.has(field) && !always && scope ? { 'x-requiredWith': scope } : {};
      const row = parameterRow(name, { ...value, ...requiredWith }, always);
      const isMap = value.type === 'object' && isObject(value.additionalProperties) && Object.keys(value.additionalProperties).length > 0;
      rows.push(isMap ? { ...row, name: `${name}[key]`, type: text((value.additionalProperties as Json).type) || 'string' } : row);
    }
  }
  return rows;
}

/** The answers' schemas, field by field. */
function answerSchemas(doc: Json, names: string[]): string {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  return names
    .map((name) => {
      const schema = isObject(schemas[name]) ? schemas[name] : {};
      return `<section class="schema" id="schema-${escape(name)}"><h3>${escape(name)}</h3>
${schema.description ? `<p>${escape(text(schema.description))}</p>\n` : ''}${table(answerRows(schema), 'Field')}
</section>`;
    })
    .join('\n');
}

function resultCodes(doc: Json): string {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const codes = isObject(schemas.ResultCode) ? schemas.ResultCode : {};
  const descriptions = isObject(codes['x-enumDescriptions']) ? codes['x-enumDescriptions'] : {};
  const groupsOf = isObject(codes['x-enumGroups']) ? codes['x-enumGroups'] : {};
  const patterns = isObject(codes['x-groups']) ? codes['x-groups'] : {};
  const rows = (Array.isArray(codes.enum) ? codes.enum : []).map(
    (code) => `<tr><td><code>${escape(String(code))}</code></td><td>${escape(text(descriptions[String(code)]))}</td><td>${(Array.isArray(groupsOf[String(code)]) ? (groupsOf[String(code)] as string[]) : []).map(escape).join(', ')}</td></tr>`,
  );
  const groupRows = Object.entries(patterns).map(([name, pattern]) => `<tr><td>${escape(name)}</td><td><code>${escape(text(pattern))}</code></td></tr>`);
  return `<h2 id="result-codes">Result codes</h2>
<p>Classify a code by the group patterns: new codes may appear.</p>
<table class="data"><thead><tr><th>Group</th><th>Pattern</th></tr></thead><tbody>${groupRows.join('')}</tbody></table>
<table class="data"><thead><tr><th>Code</th><th>Description</th><th>Groups</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** The whole page. `documentUrl` is where the shopper's browser can read the document itself. */
export function referencePage(doc: Json, documentUrl: string): string {
  const info = isObject(doc.info) ? doc.info : {};
  const paths = isObject(doc.paths) ? doc.paths : {};
  const tags = (Array.isArray(doc.tags) ? doc.tags : []).filter(isObject);
  const operations: Array<{ path: string; method: string; operation: Json }> = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) if (isObject(item) && isObject(item[method])) operations.push({ path, method, operation: item[method] as Json });
  }
  const answerNames = new Set<string>();
  const sections = tags.map((tag) => {
    const ops = operations.filter((o) => Array.isArray(o.operation.tags) && o.operation.tags[0] === tag.name);
    const items = ops.map(({ path, method, operation }) => {
      for (const r of Object.values(isObject(operation.responses) ? operation.responses : {})) {
        for (const media of Object.values(isObject(resolve(doc, r).content) ? (resolve(doc, r).content as Json) : {})) {
          const schema = isObject(media) ? media.schema : undefined;
          for (const n of isObject(schema) && Array.isArray(schema.anyOf) ? schema.anyOf.map(refName) : [refName(schema)]) if (n) answerNames.add(n);
        }
      }
      const id = text(operation.operationId);
      return `<section class="operation" id="${escape(id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(text(operation.summary))}</p>
${text(operation.description)
  .split('\n\n')
  .filter(Boolean)
  .map((p) => `<p class="hint">${escape(p)}</p>`)
  .join('\n')}
${parameters(doc, operation)}
${requestBody(doc, operation)}
${responses(doc, operation)}
</section>`;
    });
    return { tag, ops, html: `<h2 id="tag-${escape(text(tag.name).replace(/\s+/g, '-'))}">${escape(text(tag.name))}</h2>\n<p>${escape(text(tag.description))}</p>\n${items.join('\n')}` };
  });
  const toc = sections
    .map(
      ({ tag, ops }) =>
        `<li>${escape(text(tag.name))}<ul>${ops.map(({ path, method, operation }) => `<li><a href="#${escape(text(operation.operationId))}">${method.toUpperCase()} ${escape(path)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  return layout(
    'API reference',
    `<h1>API reference</h1>
<p>${escape(text(info.title))} ${escape(text(info.version))}, from the gateway's OpenAPI ${escape(text(doc.openapi))} document <a href="${escape(documentUrl)}"><code>/v1/openapi.json</code></a>, which is generated from the schemas that validate every request.</p>
<nav class="toc" aria-label="Endpoints"><ul>${toc}<li><a href="#answers">Answers</a></li><li><a href="#result-codes">Result codes</a></li></ul></nav>
${sections.map((s) => s.html).join('\n')}
<h2 id="answers">Answers</h2>
${answerSchemas(doc, [...answerNames])}
${resultCodes(doc)}`,
    '',
    { wide: true },
  );
}

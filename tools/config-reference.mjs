// Generates docs/configuration.md from the configuration schemas themselves, so the reference
// cannot drift from what the services read:
//   npm run docs:config            build, then rewrite docs/configuration.md
//   node tools/config-reference.mjs --check [file]   exit 1 (with the first difference) when
//                                  the committed file differs from the generated text (npm test)
//   node tools/config-reference.mjs --out <file>     write the reference elsewhere
// What each variable is: its schema (type, accepted values, default) as recorded by loading every
// service's configuration from a recording environment (libs/config recordingEnv); why it exists:
// the comment written beside it in the schema (libs/config/src, services/*/src/config.ts).
// NOTE: it imports the services' built config.js (dist/), so run it after `tsc -b`; npm test builds first.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';
import { z } from 'zod';
import { recordingEnv } from '@framedeck/config';
import { writeOrCheck } from './generated-file.mjs';

const root = new URL('..', import.meta.url).pathname;
export const REFERENCE_FILE = join(root, 'docs/configuration.md');

/** Every process FrameDeck runs, with the loader of its configuration (one frozen object each). */
const SERVICES = [
  { name: 'API', module: 'services/api/dist/config.js', loader: 'loadApiConfig' },
  { name: 'gateway', module: 'services/ingest-gateway/dist/config.js', loader: 'loadGatewayConfig' },
  { name: 'consumer', module: 'services/events-consumer/dist/config.js', loader: 'loadConsumerConfig' },
  { name: 'evaluator', module: 'services/alert-evaluator/dist/config.js', loader: 'loadEvaluatorConfig' },
  { name: 'CLI', module: 'services/cli/dist/config.js', loader: 'loadCliConfig' },
];

/** Sources whose `FRAMEDECK_*: schema` properties carry the explaining comments. */
function schemaSources() {
  const libs = readdirSync(join(root, 'libs/config/src'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(root, 'libs/config/src', f));
  return [...libs, ...SERVICES.map((s) => join(root, s.module.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))];
}

/** The `//` comment lines right above each `FRAMEDECK_…:` property, joined into one sentence. */
function commentsByVariable() {
  const comments = new Map();
  for (const file of schemaSources()) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text.startsWith('FRAMEDECK_')) {
        const lines = (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
          .filter((range) => range.kind === ts.SyntaxKind.SingleLineCommentTrivia)
          .map((range) => text.slice(range.pos + 2, range.end).trim());
        if (lines.length > 0 && !comments.has(node.name.text)) comments.set(node.name.text, lines.join(' '));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return comments;
}

function defaultOf(schema) {
  const def = schema._zod.def;
  if (def.type === 'optional') return '(not set)';
  if (def.type !== 'default') return '(required)';
  const value = def.defaultValue;
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.join(',');
  return String(value);
}

/** What the variable accepts, read from the schema's input side (what an operator writes). */
function acceptedOf(schema) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  if (json.enum) return json.enum.join(' \\| ');
  if (json.type === 'integer') {
    const min = json.minimum ?? (json.exclusiveMinimum !== undefined ? json.exclusiveMinimum + 1 : undefined);
    const max = json.maximum !== undefined && json.maximum < Number.MAX_SAFE_INTEGER ? json.maximum : undefined;
    if (min !== undefined && max !== undefined) return `integer ${min}–${max}`;
    return min !== undefined ? `integer ≥ ${min}` : 'integer';
  }
  if (json.format === 'uri') return 'URL';
  if (json.pattern) return `string matching \`${json.pattern}\``;
  return 'string';
}

const cell = (text) => text.replace(/\|/g, '\\|');

/** The whole reference as Markdown: one row per variable, in the order the services read them. */
export async function renderConfigReference() {
  const comments = commentsByVariable();
  const variables = new Map();
  for (const service of SERVICES) {
    const { [service.loader]: load } = await import(join(root, service.module));
    const recording = recordingEnv();
    load(recording.source);
    for (const [name, schema] of recording.variables) {
      const row = variables.get(name) ?? { name, schema, services: [] };
      row.services.push(service.name);
      variables.set(name, row);
    }
  }
  const rows = [...variables.values()].map(
    (v) =>
      `| \`${v.name}\` | \`${cell(defaultOf(v.schema))}\` | ${acceptedOf(v.schema)} | ${v.services.join(', ')} | ` +
      `${cell(comments.get(v.name) ?? z.globalRegistry.get(v.schema)?.description ?? '')} |`,
  );
  const markdown = [
    '<!-- Generated by `npm run docs:config` (tools/config-reference.mjs) from the configuration schemas; do not edit.',
    '     npm test fails when this file differs from what the schemas say. -->',
    '',
    '# Configuration reference',
    '',
    'Every service reads its configuration from environment variables once, at start, through the',
    'schemas in `libs/config/src` and its own `src/config.ts`; an invalid value stops it with a message',
    'naming every bad variable. An empty value counts as not set (the default applies). Secrets are never',
    'echoed in those messages. The defaults fit the local stack of `npm start`. How to run in production:',
    '[operations](operations.md).',
    '',
    '| Variable | Default | Accepts | Read by | Why |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  // Laid out as the repository's formatter lays out Markdown, so `prettier --check` agrees with it.
  return prettier.format(markdown, { ...(await prettier.resolveConfig(REFERENCE_FILE)), parser: 'markdown' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const generated = await renderConfigReference();
  // --check [file] compares; --out <file> writes elsewhere (tests); no argument rewrites the reference.
  const [mode, file] = process.argv.slice(2);
  writeOrCheck(file ?? REFERENCE_FILE, generated, { check: mode === '--check', command: 'npm run docs:config' });
}

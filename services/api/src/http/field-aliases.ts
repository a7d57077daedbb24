import { problems } from '@framedeck/problem';

/**
 * Other names some clients send for a canonical field: alias → canonical path (dots for a
 * nested field, e.g. `fpsGood` → `fps.good`; `list[].alias` → `list[].canonical` renames a
 * member in each element of an array). The OpenAPI document names only the canonical
 * form and lists the aliases beside it (x-aliases), so there is one form to learn and the
 * public Framedash clients work unchanged (docs/clients.md).
 */
export type FieldAliases = Readonly<Record<string, string>>;

/** Where aliases apply: query parameters and JSON body members. */
export type RequestAliases = { query?: FieldAliases; body?: FieldAliases };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Renames the aliases found in `input` to their canonical paths (a copy; the input is left as
 * it is). An alias sent together with its canonical field is a 400: which one wins would be a
 * guess.
 */
export function applyAliases(input: unknown, aliases: FieldAliases | undefined, where: string): unknown {
  if (!aliases || !isPlainObject(input)) return input;
  const output: Record<string, unknown> = structuredClone(input);
  for (const [alias, canonical] of Object.entries(aliases)) {
    const inElements = /^([^.[\]]+)\[\]\.(.+)$/.exec(alias);
    if (inElements) {
      const [, list, member] = inElements as unknown as [string, string, string];
      const elements = output[list];
      const target = canonical.slice(`${list}[].`.length);
      if (Array.isArray(elements)) {
        output[list] = elements.map((e, i) => applyAliases(e, { [member]: target }, `${where}.${list}.${i}`));
      }
      continue;
    }
    if (!(alias in output)) continue;
    const path = canonical.split('.');
    let holder = output;
    for (const segment of path.slice(0, -1)) {
      const next = holder[segment];
      if (next === undefined) holder[segment] = {};
      else if (!isPlainObject(next)) throw conflict(where, alias, canonical);
      holder = holder[segment] as Record<string, unknown>;
    }
    const leaf = path.at(-1)!;
    if (leaf in holder) throw conflict(where, alias, canonical);
    holder[leaf] = output[alias];
    delete output[alias];
  }
  return output;
}

function conflict(where: string, alias: string, canonical: string) {
  return problems.badRequest(
    `Invalid request: ${where}.${alias}: an alias of ${where}.${canonical}; send only one of the two.`,
  );
}

/** The aliases as a sentence for an operation's description. */
export function describeAliases(aliases: RequestAliases | undefined): string | undefined {
  const parts = (['query', 'body'] as const).flatMap((where) =>
    Object.entries(aliases?.[where] ?? {}).map(([alias, canonical]) => `${where} \`${alias}\` = \`${canonical}\``),
  );
  return parts.length === 0
    ? undefined
    : `Also accepted (aliases, as the Framedash CLI and MCP server send them; not both forms at once): ${parts.join(', ')}.`;
}

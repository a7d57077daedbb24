// Keeps each workspace's tsconfig "references" and the root tsconfig.build.json in step with
// the @framedeck/* dependencies declared in package.json, so `tsc -b` always builds in
// dependency order. Run after adding a workspace or a dependency between workspaces:
//   node tools/sync-project-references.mjs
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const workspaces = ['libs', 'services']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json')))
  // NOTE: a workspace whose tsconfig says noEmit (the dashboard: Vite bundles it, tsc only
  // type-checks it) is not a `tsc -b` project; its own build script runs after tsc -b.
  .filter((dir) => JSON.parse(readFileSync(join(dir, 'tsconfig.json'))).compilerOptions?.noEmit !== true);
const byName = new Map(workspaces.map((dir) => [JSON.parse(readFileSync(join(dir, 'package.json'))).name, dir]));

for (const dir of workspaces) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json')));
  const internal = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((d) => byName.has(d));
  const tsconfigPath = join(dir, 'tsconfig.json');
  const tsconfig = JSON.parse(readFileSync(tsconfigPath));
  tsconfig.references = internal.sort().map((d) => ({ path: relative(dir, byName.get(d)) }));
  if (tsconfig.references.length === 0) delete tsconfig.references;
  writeFileSync(tsconfigPath, JSON.stringify(tsconfig, null, 2) + '\n');
}
const build = {
  files: [],
  references: workspaces.map((dir) => ({ path: relative(root, dir) })).sort((a, b) => a.path.localeCompare(b.path)),
};
writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify(build, null, 2) + '\n');
console.log(`synced ${workspaces.length} workspaces`);

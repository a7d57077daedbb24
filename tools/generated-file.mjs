// What every generator in tools/ does with its output: write the file, or (--check, as npm test
// runs it) exit 1 naming the first line where the committed file differs from the generated text.
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(file, generated, { check, command }) {
  if (!check) {
    writeFileSync(file, generated);
    console.log(`wrote ${file}`);
    return;
  }
  const committed = readFileSync(file, 'utf8').split('\n');
  const lines = generated.split('\n');
  const at = lines.findIndex((line, i) => line !== committed[i]);
  if (at === -1 && committed.length === lines.length) return;
  const line = at === -1 ? Math.min(lines.length, committed.length) : at;
  console.error(`${file} is out of date (run ${command}); first difference at line ${line + 1}:`);
  console.error(`  committed: ${committed[line] ?? '(end of file)'}\n  generated: ${lines[line] ?? '(end of file)'}`);
  process.exit(1);
}

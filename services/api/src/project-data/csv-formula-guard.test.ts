import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { csvFormulaGuard } from './csv-formula-guard.js';

// As ClickHouse writes CSVWithNames: text quoted (quotes doubled inside), numbers, \N and arrays bare.
const INPUT = [
  '"event_id","event_name","position_x","player_id","attribute_values"',
  '"e1","=HYPERLINK(""http://evil.example"",""x"")",-12.5,"+1 555","[\'=cmd\']"',
  '"e2","say ""hi""",\\N,"-2+3","[]"',
  '"e3","@SUM(A1)",3,"\tTAB","\rCR"',
  '"e4","""=quoted first""",0,"",""',
  '"e5","ok, with a comma",1e-5,"a\nnewline","x"',
  '',
].join('\n');

const EXPECTED = [
  '"event_id","event_name","position_x","player_id","attribute_values"',
  '"e1","\'=HYPERLINK(""http://evil.example"",""x"")",-12.5,"\'+1 555","[\'=cmd\']"',
  '"e2","say ""hi""",\\N,"\'-2+3","[]"',
  '"e3","\'@SUM(A1)",3,"\'\tTAB","\'\rCR"',
  '"e4","""=quoted first""",0,"",""',
  '"e5","ok, with a comma",1e-5,"a\nnewline","x"',
  '',
].join('\n');

const guard = (chunks: Buffer[]) => text(Readable.from(chunks).pipe(csvFormulaGuard()));

describe('CSV formula guard', () => {
  it("prefixes text cells starting with =, +, -, @, tab or CR with ', and leaves numbers, \\N and arrays alone", async () => {
    expect(await guard([Buffer.from(INPUT)])).toBe(EXPECTED);
  });

  it('gives the same bytes wherever the stream is cut into chunks', async () => {
    const bytes = Buffer.from(INPUT);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await guard([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toBe(EXPECTED);
    }
    const oneByteChunks = [...bytes].map((b) => Buffer.from([b]));
    expect(await guard(oneByteChunks)).toBe(EXPECTED);
  });

  it('passes a chunk with nothing to neutralise through untouched', async () => {
    const chunk = Buffer.from('"a","b",1\n');
    const out: Buffer[] = [];
    await new Promise<void>((resolve) =>
      Readable.from([chunk])
        .pipe(csvFormulaGuard())
        .on('data', (c: Buffer) => out.push(c))
        .on('end', resolve),
    );
    expect(out).toEqual([chunk]);
  });
});

import { describe, expect, it } from 'vitest';
import { dataArrayOfJsonLines } from './json-lines.js';

const envelope = (text: string) => JSON.parse(dataArrayOfJsonLines(Buffer.from(text)).toString('utf8'));

describe('the data array of JSON lines', () => {
  it('puts each line in the data array, in order', () => {
    expect(envelope('{"x":1,"s":"a"}\n{"x":2,"s":"b"}\n')).toEqual({
      success: true,
      data: [
        { x: 1, s: 'a' },
        { x: 2, s: 'b' },
      ],
    });
  });

  it('keeps escaped newlines and non-ASCII text inside strings as they are', () => {
    expect(envelope('{"s":"line\\nbreak"}\n{"s":"é\\u2028"}\n').data).toEqual([{ s: 'line\nbreak' }, { s: 'é\u2028' }]);
  });

  it('no lines: an empty array; a last line without its newline still counts', () => {
    expect(envelope('')).toEqual({ success: true, data: [] });
    expect(envelope('{"x":1}\n{"x":2}').data).toEqual([{ x: 1 }, { x: 2 }]);
  });
});

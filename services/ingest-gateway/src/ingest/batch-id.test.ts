import { describe, expect, it } from 'vitest';
import { contentBatchId } from './batch-id.js';

const project = '0b6c6b8e-7d1c-4c1e-9d55-0b1f3f0e7a10';
const other = '5d0c2a11-2a7e-4f55-8b0d-7f9a6a1f2b33';

describe('batch id of a batch without Idempotency-Key', () => {
  it('is the same for the same project and bytes, and a version-8 UUID', () => {
    const bytes = Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x61]);
    const id = contentBatchId(project, bytes);
    expect(contentBatchId(project, Buffer.from(bytes))).toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('differs with one byte changed, and between projects', () => {
    const bytes = Buffer.from('same batch');
    const id = contentBatchId(project, bytes);
    expect(contentBatchId(project, Buffer.from('same batcH'))).not.toBe(id);
    expect(contentBatchId(other, bytes)).not.toBe(id);
  });

  it('cannot be forged by moving bytes between the project id and the body', () => {
    expect(contentBatchId('ab', Buffer.from('c'))).not.toBe(contentBatchId('a', Buffer.from('bc')));
  });
});

import { describe, expect, it } from 'vitest';
import { availableFields, checkFields, FieldsError, parseFields, pickFields, selectColumns } from '../../src/output/fields.js';
import { tsvWriter, type Column } from '../../src/output/writers.js';
import { captureStream } from '../helpers/run-cli.js';

const ok = { id: 'res_1', status: 'published', error: null, platform_data: { url: 'https://x.example/1', likes: 3 }, tags: ['a'] };
const failed = { id: 'res_2', status: 'failed', error: { code: 'rate_limited', message: 'slow down' }, platform_data: null, tags: [] };

function fieldsError(fn: () => unknown): FieldsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FieldsError) return e;
    throw e;
  }
  throw new Error('expected a FieldsError');
}

describe('--fields', () => {
  it('parses dotted paths, trims spaces and drops repeats', () => {
    expect(parseFields('id, status,error.code,id')).toEqual(['id', 'status', 'error.code']);
  });

  it.each(['', 'id,,status', 'error..code', '.id', 'a b'])('refuses %j naming the flag', (text) => {
    const e = fieldsError(() => parseFields(text));
    expect(e.message).toMatch(/^--fields: .* is not a field name; give names separated by commas/);
  });

  it('picks nested values in the order given, rebuilding parents', () => {
    const picked = pickFields(failed, ['error.code', 'id', 'platform_data.url']);
    expect(picked).toEqual({ error: { code: 'rate_limited' }, id: 'res_2', platform_data: { url: null } });
    expect(Object.keys(picked)).toEqual(['error', 'id', 'platform_data']);
    expect(JSON.stringify(pickFields(ok, ['status', 'error.code', 'error.message']))).toBe('{"status":"published","error":{"code":null,"message":null}}');
    expect(pickFields(ok, ['platform_data'])).toEqual({ platform_data: { url: 'https://x.example/1', likes: 3 } });
  });

  it('lists the fields of sample rows, merged, nested with dots, not into arrays', () => {
    expect(availableFields([ok, failed]).sort()).toEqual(['error', 'error.code', 'error.message', 'id', 'platform_data', 'platform_data.likes', 'platform_data.url', 'status', 'tags']);
  });

  it('an unknown field lists the fields there are', () => {
    const e = fieldsError(() => checkFields(['id', 'eror.code', 'colour'], availableFields([failed])));
    expect(e.unknown).toEqual(['eror.code', 'colour']);
    expect(e.message).toBe('--fields: unknown fields "eror.code", "colour"; the fields are: id, status, error, error.code, error.message, platform_data, tags');
    expect(() => checkFields(['error'], ['error.code'])).not.toThrow();
  });
});

describe('--fields for TSV and tables', () => {
  type Row = typeof failed;
  const columns: Column<Row>[] = [
    { header: 'ID', value: (r) => r.id },
    { header: 'Status', value: (r) => r.status },
    { header: 'Error', field: 'error.code', value: (r) => r.error?.code ?? '' },
  ];

  it('selects and orders columns by field name (default: the header in lower case)', async () => {
    const picked = selectColumns(columns, ['error.code', 'id']);
    expect(picked.map((c) => c.header)).toEqual(['Error', 'ID']);
    const out = captureStream();
    const w = tsvWriter(out, picked);
    await w.write(failed);
    await w.end();
    expect(out.text()).toBe('rate_limited\tres_2\n');
  });

  it('a field of the data that is not a column becomes a plain column', () => {
    const picked = selectColumns(columns, ['error.message', 'status'], availableFields([failed]));
    expect(picked[0]!.value(failed)).toBe('slow down');
    expect(picked[0]!.header).toBe('error.message');
  });

  it('an unknown column is an error listing the columns', () => {
    const e = fieldsError(() => selectColumns(columns, ['nope']));
    expect(e.available).toEqual(['id', 'status', 'error.code']);
    expect(availableFields(columns)).toEqual(['id', 'status', 'error.code']);
  });
});

// Names a user types that happen to be members of Object.prototype ("constructor",
// "__proto__", "toString") are names like any other: a CSV header, a --platform value, an MCP
// argument, a media file's extension, an `api -f` field, a help topic and a payload field.
import { describe, expect, it } from 'vitest';
import { fieldsToBody, fieldsToQuery } from '../../src/client/api-fields.js';
import { checkArgs } from '../../src/mcp/json-schema.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { parseBulk } from '../../src/posts/bulk/rows.js';
import { draftFromBody } from '../../src/posts/draft.js';
import type { Issue } from '../../src/posts/draft.js';
import { mimeTypeFor } from '../../src/wire/platforms.js';
import { suggestPlatform } from '../../src/wire/suggest.js';
import { runCli } from '../helpers/run-cli.js';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('prototype member names typed by a user', () => {
  it('a CSV header names them as unknown columns (no crash)', () => {
    for (const name of ['__proto__', 'constructor']) {
      const { fileIssues, rows } = parseBulk(`at,platforms,text,${name}\n2030-01-01 10:00,bluesky,hi,x\n`, { label: 'plan.csv', baseDir: '/tmp', zone: 'UTC', now: 0 });
      expect(rows).toEqual([]);
      expect(fileIssues.map((i) => i.message)).toEqual([`plan.csv: header column 4 "${name}" is not a known column`]);
    }
  });

  it('a platform suggestion is a platform id or nothing, never a function', () => {
    for (const name of NAMES) {
      const s = suggestPlatform(name);
      expect(s === undefined || /^[a-z-]+$/.test(s)).toBe(true);
    }
    expect(suggestPlatform('fb')).toBe('facebook-page');
  });

  it('`--platform constructor` is a usage error with no function source in it', async () => {
    const r = await runCli(['posts', 'create', '--platform', 'constructor', '--text', 'hi', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"constructor" is not a platform id/);
    expect(r.stderr).not.toMatch(/function|native code/);
  });

  it('`help constructor` is not a help topic', async () => {
    const r = await runCli(['help', 'constructor']);
    expect(r.stderr).not.toMatch(/is not a function|native code|TypeError/);
    expect(r.code).toBe(2);
  });

  it('an MCP argument named after one is an unknown argument', () => {
    const schema = TOOLS.find((t) => t.name === 'create_draft')!.inputSchema;
    for (const name of NAMES) {
      const issues = checkArgs(schema, JSON.parse(`{"platforms":["bluesky"],"text":"hi","${name}":1}`));
      expect(issues).toEqual([{ field: name, message: `${name}: unknown argument`, fix: expect.any(String) }]);
    }
  });

  it('a media file named photo.constructor has no known type', () => {
    expect(mimeTypeFor('photo.constructor')).toBeUndefined();
    expect(mimeTypeFor('photo.__proto__')).toBeUndefined();
    expect(mimeTypeFor('photo.PNG')).toBe('image/png');
  });

  it('`api -f` fields and payload fields keep them as own fields', () => {
    const body = fieldsToBody([
      ['constructor', '1'],
      ['__proto__', '{"polluted":true}'],
      ['constructor', '2'],
    ]);
    expect(JSON.stringify(body)).toBe('{"constructor":[1,2],"__proto__":{"polluted":true}}');
    expect(JSON.stringify(fieldsToQuery([['toString', 'a']]))).toBe('{"toString":"a"}');
    const issues: Issue[] = [];
    const { draft } = draftFromBody(JSON.parse('{"payloads":{"bluesky":{"text":"hi","__proto__":{"x":1}}}}'), '', (p) => p, issues, { schedule: false });
    expect(issues).toEqual([]);
    expect(JSON.stringify(draft!.platforms[0]!.extra)).toBe('{"__proto__":{"x":1}}');
  });
});

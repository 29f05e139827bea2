// A bulk row's media path is made absolute in the file's folder exactly as path.resolve makes it,
// whether it takes the plain join or path.resolve itself: every kind of segment, both kinds of folder.
import fc from 'fast-check';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathsUnder } from '../../src/posts/bulk/rows.js';

const segment = fc.oneof(fc.constantFrom('.', '..', '', '.hidden', 'a.png', '...', 'img', ' ', '..x', 'x..'), fc.string({ unit: fc.constantFrom('a', '.', '/', 'é', '\\', ' '), maxLength: 6 }));
const relative = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));

describe('pathsUnder', () => {
  it.each(['/tmp/campaign', '/', '/tmp/campaign/', '/tmp/a/../campaign', 'relative/folder'])('matches path.resolve under %s', (base) => {
    const under = pathsUnder(base);
    fc.assert(
      fc.property(fc.oneof(relative, relative.map((p) => `/${p}`)), (p) => {
        expect(under(p)).toBe(resolve(base, p));
      }),
      { numRuns: 2000 },
    );
  });

  it('joins the plain cases a bulk file has, and resolves the others', () => {
    const under = pathsUnder('/tmp/campaign');
    expect(under('images/img1.png')).toBe('/tmp/campaign/images/img1.png');
    expect(under('./images/../img1.png')).toBe('/tmp/campaign/img1.png');
    expect(under('images//img1.png')).toBe('/tmp/campaign/images/img1.png');
    expect(under('../secret.png')).toBe('/tmp/secret.png');
    expect(under('/etc/passwd')).toBe('/etc/passwd');
    expect(under('')).toBe('/tmp/campaign');
  });
});

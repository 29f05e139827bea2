// The reader behind the package's link check (test/e2e/pack-manifest.test.ts): it finds every
// kind of link a README holds, leaves code alone, and tells a dead file or anchor from a live one.
import { describe, expect, it } from 'vitest';
import { deadRelativeLinks, headingAnchors, linkTargets } from '../helpers/markdown-links.js';

const FILES = ['README.md', 'LICENSE', 'dist/man/socialpub.1', 'skills/socialpub/SKILL.md'];

const DOC = `# socialpub

See [the licence](LICENSE), [the man page](./dist/man/socialpub.1 "man"), [skills](skills/),
![a picture](docs/shot.png), [the design](docs/ARCHITECTURE.md#rooms), [up](../outside.md),
[a section](#syncpostlys-api-experimental), [a missing one](#nowhere), [mail](mailto:a@b.c),
[web](https://example.com/docs/x.md), [ref][arch], <a href="CHANGELOG.md">changes</a>, and
[across two
lines](skills/socialpub/SKILL.md).

[arch]: docs/ARCHITECTURE.md

\`[not a link](code-span.md)\`

\`\`\`sh
# A heading inside code is no heading
cat [nor](this.md)
\`\`\`

## SyncPostly's API (experimental)
## Exit codes
## Exit codes
`;

describe('relative links in shipped Markdown', () => {
  it('finds inline links and images, reference definitions and HTML links, not those in code', () => {
    const targets = linkTargets(DOC);
    expect(targets).toEqual(expect.arrayContaining(['LICENSE', './dist/man/socialpub.1', 'docs/shot.png', 'docs/ARCHITECTURE.md', 'CHANGELOG.md', 'skills/socialpub/SKILL.md']));
    expect(targets).not.toContain('code-span.md');
    expect(targets).not.toContain('this.md');
  });

  it('gives headings GitHub\'s anchors, repeats numbered, code left out', () => {
    expect([...headingAnchors(DOC)]).toEqual(['socialpub', 'syncpostlys-api-experimental', 'exit-codes', 'exit-codes-1']);
  });

  it('names the links that lead nowhere in the package: missing files, paths outside it, unknown anchors', () => {
    expect(deadRelativeLinks('README.md', DOC, FILES).sort()).toEqual(['#nowhere', '../outside.md', 'CHANGELOG.md', 'docs/ARCHITECTURE.md', 'docs/ARCHITECTURE.md#rooms', 'docs/shot.png'].sort());
    // Relative to the document's own folder.
    expect(deadRelativeLinks('skills/socialpub/SKILL.md', '[back](../../LICENSE) [lost](LICENSE)', FILES)).toEqual(['LICENSE']);
  });
});

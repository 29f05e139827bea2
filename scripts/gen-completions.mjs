// `npm run completions`: regenerates the checked-in scripts under completions/ from the built CLI.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

export const COMPLETION_FILES = { bash: 'socialpub.bash', zsh: '_socialpub', fish: 'socialpub.fish' };
const root = new URL('../', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    const script = execFileSync(process.execPath, [new URL('bin/socialpub.js', root).pathname, 'completion', shell], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    writeFileSync(new URL(`completions/${file}`, root), script);
    console.log(`completions/${file}`);
  }
}

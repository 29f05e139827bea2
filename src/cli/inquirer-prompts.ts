// Only the prompts the prompter uses, each from its own package: through @inquirer/prompts'
// index the bundle also took its editor prompt and iconv-lite (about 600 kB, 45% of the package).
export { default as checkbox } from '@inquirer/checkbox';
export { default as confirm } from '@inquirer/confirm';
export { default as input } from '@inquirer/input';
export { default as password } from '@inquirer/password';
export { default as select } from '@inquirer/select';

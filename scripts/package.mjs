// `npm run package [-- vsce options]`: the .vsix, with a README made for the extension page. This project has no
// hosted repository for vsce to point relative links at (VS Code's extension page does not resolve them against the
// package), so the packaged README carries its pictures inline as PNG data: URLs and names repository files as
// plain text; nothing relative is left for vsce to rewrite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
  .replace(/!\[([^\]]*)\]\(([^):]+\.png)\)/g, (_, alt, file) =>
    `![${alt}](data:image/png;base64,${fs.readFileSync(path.join(root, file)).toString('base64')})`)
  .replace(/(?<!!)\[([^\]]*)\]\((?![a-z]+:|#)[^)]*\)/gi, '$1');
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
const packaged = path.join(root, 'dist', 'package-readme.md');
fs.writeFileSync(packaged, readme);
const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
const r = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--readme-path', path.relative(root, packaged), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);

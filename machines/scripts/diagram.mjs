// Writes a Mermaid statechart of every machine into docs/machines/ (run via npm run machines:diagram).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineDiagrams } from '../dist/diagram/diagrams.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'machines');
mkdirSync(out, { recursive: true });
for (const { file, content } of machineDiagrams()) {
  writeFileSync(join(out, file), content);
  console.log(`docs/machines/${file}`);
}

#!/usr/bin/env node
// `npm run nginx:headers`: writes nginx's security headers from the definition the Node
// process sends (backend/src/common/security-headers.ts, read from the backend's build), so
// `npm start` and the nginx stack answer with the same set. Commit the two files it writes;
// backend/src/common/security-headers.spec.ts fails while they differ from the definition.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { nginxSecurityHeaders, nginxSecurityHeaderMaps } = await import(
  join(root, 'backend', 'dist', 'common', 'security-headers.js')
);

const files = {
  'security-headers.conf': nginxSecurityHeaders(),
  'security-header-maps.conf': nginxSecurityHeaderMaps(),
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(root, 'nginx', 'snippets', name), text);
  console.log(`nginx/snippets/${name}`);
}

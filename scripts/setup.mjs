// Makes a fresh clone ready: installs npm dependencies when the lockfile changed, and for
// the test suite the system packages it drives (Chromium, nginx, docker-compose for the
// static compose check, ffmpeg for the door test's camera video, poppler-utils for reading
// the ticket PDF, prometheus for promtool). Runs before `npm start` and `npm test`; a no-op
// when all is there.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forTests = process.argv.includes('--test');
const run = (cmd) =>
  execSync(cmd, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });

const lock = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.awhh-lock-hash');
const hash = existsSync(lock)
  ? createHash('sha256').update(readFileSync(lock)).digest('hex')
  : 'none';
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
  console.log('Installing npm dependencies (npm install) …');
  // `npm ci` is not usable here: the lockfile cannot list other platforms' optional packages.
  run('npm install --no-audit --no-fund');
  writeFileSync(stamp, hash);
}

if (forTests) {
  const wanted = [
    ['chromium', '/usr/bin/chromium'],
    ['nginx', '/usr/sbin/nginx'],
    ['docker-compose', '/usr/bin/docker-compose'],
    // The door check-in test turns a ticket's QR code into a fake camera video.
    ['ffmpeg', '/usr/bin/ffmpeg'],
    // The printed-ticket tests read the PDF's text and render its page (pdftotext, pdftoppm).
    ['poppler-utils', '/usr/bin/pdftoppm'],
    // promtool checks and unit-tests the alerting rules (ops/prometheus; about 19 MB).
    ['prometheus', '/usr/bin/promtool'],
  ].filter(([, path]) => !existsSync(path));
  if (wanted.length > 0) {
    const names = wanted.map(([name]) => name).join(' ');
    const isRoot = process.getuid?.() === 0;
    if (!isRoot || !existsSync('/usr/bin/apt-get')) {
      console.error(
        `The tests need these Debian packages: ${names}\nInstall them with: sudo apt-get update && sudo apt-get install -y ${names}`,
      );
      process.exit(1);
    }
    console.log(`Installing ${names} from Debian's packages …`);
    // Another apt-get (an unattended upgrade on a fresh machine) may hold dpkg's lock:
    // wait for it instead of failing.
    const wait = '-o DPkg::Lock::Timeout=600';
    run(
      `apt-get ${wait} update -qq && DEBIAN_FRONTEND=noninteractive apt-get ${wait} install -y -qq ${names}`,
    );
  }
}

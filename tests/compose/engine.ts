import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * A real container engine for the compose test: Debian's docker.io and docker-compose
 * (installed when missing), a dockerd of its own when none runs, and the base images the
 * project's Dockerfiles and docker-compose.yml name. Where a registry answers they are
 * pulled; where none does, stand-ins are built from Debian bookworm (debootstrap from this
 * machine's Debian mirror) with this machine's Node and Debian's nginx and PostgreSQL, laid
 * out as the official images are (standins/), and tagged with the very names the project
 * uses. Built images stay in Docker's store: the next run finds the tags and skips them.
 */

const STANDINS = join(__dirname, 'standins');
/** The debootstrapped Debian every stand-in starts from. */
const BASE_TAG = 'awhh-standin/debian:bookworm';
/** On a stand-in: the hash of its recipe, so a changed recipe rebuilds it. */
const RECIPE_LABEL = 'org.awhh.standin';

export interface Log {
  file: string;
  note(line: string): void;
}

export function openLog(dir: string): Log {
  const file = join(dir, 'engine.log');
  return {
    file,
    note(line) {
      const stamped = `[${new Date().toISOString()}] ${line}`;
      appendFileSync(file, `${stamped}\n`);
      process.stdout.write(`compose: ${line}\n`);
    },
  };
}

export interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; its output goes to the log as it comes (and is returned). */
export function run(
  log: Log,
  command: string,
  args: readonly string[],
  options: SpawnOptions & { input?: string; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    appendFileSync(log.file, `$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d;
      appendFileSync(log.file, d);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d;
      appendFileSync(log.file, d);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ status: code ?? 1, stdout, stderr });
    });
    child.stdin!.end(options.input ?? '');
  });
}

/** As `run`, but a failure throws with the end of the output. */
export async function must(
  log: Log,
  command: string,
  args: readonly string[],
  options: SpawnOptions & { input?: string; timeoutMs?: number } = {},
): Promise<string> {
  const result = await run(log, command, args, options);
  if (result.status !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${tail}`);
  }
  return result.stdout;
}

function have(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Debian's packages for the engine, installed as root, waiting for another apt to finish. */
export async function ensurePackages(log: Log): Promise<void> {
  const wanted: [string, string][] = [
    ['dockerd', 'docker.io'],
    ['docker-compose', 'docker-compose'],
    ['debootstrap', 'debootstrap'],
  ];
  const missing = wanted.filter(([command]) => !have(command)).map(([, pkg]) => pkg);
  if (!have('docker')) missing.push('docker.io');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`as root: apt-get install -y ${[...new Set(missing)].join(' ')}`);
  }
  log.note(`installing ${[...new Set(missing)].join(' ')} from Debian`);
  // apt waits for dpkg's lock up to the timeout; the package lists' lock it does not wait
  // for, so a run that finds it taken tries again until another apt is done.
  const apt = (args: string[]) =>
    run(log, 'apt-get', ['-o', 'DPkg::Lock::Timeout=900', ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  for (const args of [['update'], ['install', '-y', ...new Set(missing)]]) {
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const result = await apt(args);
      if (result.status === 0) break;
      const locked = /Could not get lock|Unable to lock|is held by process/.test(result.stderr);
      if (!locked || Date.now() > deadline) {
        throw new Error(`apt-get ${args.join(' ')} failed:\n${result.stderr.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 5_000));
    }
  }
}

export interface Daemon {
  /** Stops the daemon if this run started it. */
  stop(): Promise<void>;
}

async function dockerAnswers(log: Log): Promise<boolean> {
  return (await run(log, 'docker', ['info', '--format', '{{.ServerVersion}}'])).status === 0;
}

/** The running Docker daemon, or one started here (overlay2) and stopped by `stop()`. */
export async function ensureDaemon(log: Log, dir: string): Promise<Daemon> {
  if (await dockerAnswers(log)) return { stop: async () => {} };
  log.note('starting dockerd --storage-driver=overlay2');
  const out = openSync(join(dir, 'dockerd.log'), 'a');
  const daemon = spawn('dockerd', ['--storage-driver=overlay2'], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  while (!(await dockerAnswers(log))) {
    if (daemon.exitCode !== null || Date.now() > deadline) {
      throw new Error(`dockerd did not come up; see ${join(dir, 'dockerd.log')}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    async stop() {
      if (daemon.exitCode !== null) return;
      log.note('stopping the dockerd this run started');
      daemon.kill('SIGTERM');
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000));
      if ((await Promise.race([exited, timeout])) === 'timeout') daemon.kill('SIGKILL');
    },
  };
}

async function imageLabel(log: Log, image: string): Promise<string | null | undefined> {
  const result = await run(log, 'docker', [
    'image',
    'inspect',
    '--format',
    `{{ index .Config.Labels "${RECIPE_LABEL}" }}`,
    image,
  ]);
  if (result.status !== 0) return undefined; // no such image
  const label = result.stdout.trim();
  return label === '' || label === '<no value>' ? null : label;
}

/** The Debian sources this machine uses (bookworm and its updates and security suites). */
function debianSources(): { mirror: string; sources: string; list: string } {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d')
      ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f))
      : []),
  ].filter((f) => existsSync(f) && /\.(list|sources)$/.test(f));
  const blocks: string[] = [];
  const lines: string[] = [];
  let mirror: string | undefined;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.sources')) {
      for (const block of text.split(/\n\s*\n/)) {
        const suites = /^Suites:\s*(.+)$/m.exec(block)?.[1]?.trim().split(/\s+/) ?? [];
        const uris = /^URIs:\s*(\S+)/m.exec(block)?.[1];
        if (!uris || suites.length === 0 || !suites.every((s) => s.startsWith('bookworm'))) {
          continue;
        }
        if (/^Enabled:\s*no/im.test(block)) continue;
        blocks.push(block.trim());
        if (suites.includes('bookworm')) mirror ??= uris;
      }
    } else {
      for (const line of text.split('\n')) {
        const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(bookworm\S*)\s/.exec(line);
        if (!m) continue;
        lines.push(line);
        if (m[2] === 'bookworm') mirror ??= m[1];
      }
    }
  }
  if (!mirror) throw new Error('this machine has no Debian bookworm mirror in /etc/apt');
  return {
    mirror,
    sources: blocks.length ? `${blocks.join('\n\n')}\n` : '',
    list: lines.length ? `${lines.join('\n')}\n` : '',
  };
}

/** Debian bookworm from this machine's mirror, imported as BASE_TAG (once). */
async function ensureBase(log: Log): Promise<void> {
  if ((await imageLabel(log, BASE_TAG)) !== undefined) return;
  const { mirror, sources, list } = debianSources();
  const root = mkdtempSync(join('/var/tmp', 'awhh-bookworm-'));
  const started = Date.now();
  log.note(`debootstrap bookworm from ${mirror} (a cold start takes minutes)`);
  try {
    await must(log, 'debootstrap', ['--variant=minbase', 'bookworm', root, mirror]);
    // apt in the images uses the same mirror and suites as this machine.
    rmSync(join(root, 'etc/apt/sources.list'), { force: true });
    if (sources) writeFileSync(join(root, 'etc/apt/sources.list.d/debian.sources'), sources);
    if (list) writeFileSync(join(root, 'etc/apt/sources.list'), list);
    // As Debian's official images: no service starts from a package's postinst.
    writeFileSync(join(root, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    rmSync(join(root, 'var/cache/apt/archives'), { recursive: true, force: true });
    mkdirSync(join(root, 'var/cache/apt/archives/partial'), { recursive: true });
    rmSync(join(root, 'var/lib/apt/lists'), { recursive: true, force: true });
    mkdirSync(join(root, 'var/lib/apt/lists/partial'), { recursive: true });
    await must(log, 'sh', [
      '-c',
      `tar -C "${root}" --numeric-owner -c . | docker import --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - ${BASE_TAG}`,
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  log.note(`base image ${BASE_TAG} in ${Math.round((Date.now() - started) / 1000)} s`);
}

function which(command: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`${command} not found`);
  return realpathSync(found.stdout.trim());
}

/** The build context of a stand-in: its recipe, and for node this machine's Node. */
function standinContext(kind: string, image: string, dir: string): string {
  const context = mkdtempSync(join(dir, `standin-${kind}-`));
  cpSync(join(STANDINS, kind), context, { recursive: true });
  if (kind === 'node') {
    const node = which('node');
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const wanted = /^node:(\d+)/.exec(image)?.[1];
    if (wanted && !version.startsWith(`v${wanted}.`)) {
      throw new Error(`${image} needs Node ${wanted}; this machine's ${node} is ${version}`);
    }
    cpSync(node, join(context, 'node'));
    // npm beside it (…/lib/node_modules/npm), the headers under …/include/node.
    const npm = dirname(dirname(which('npm')));
    cpSync(npm, join(context, 'npm'), { recursive: true, dereference: true });
    const include = [
      join(dirname(dirname(node)), 'include', 'node'),
      '/usr/include/node',
      '/usr/local/include/node',
    ].find((d) => existsSync(join(d, 'node.h')));
    if (!include) throw new Error(`no Node headers (node.h) beside ${node}`);
    cpSync(include, join(context, 'include'), { recursive: true, dereference: true });
    const ca = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
    cpSync(
      existsSync(ca) ? ca : '/etc/ssl/certs/ca-certificates.crt',
      join(context, 'ca-certificates.crt'),
    );
  }
  return context;
}

/** The hash of a stand-in's recipe (and of the Node it carries), its label. */
function recipeHash(kind: string): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) add(full);
      else hash.update(`${basename(full)}\0`).update(readFileSync(full));
    }
  };
  add(join(STANDINS, kind));
  if (kind === 'node') {
    hash.update(spawnSync(which('node'), ['--version'], { encoding: 'utf8' }).stdout);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Which stand-in recipe serves an image name, by its repository. */
function standinKind(image: string): string | null {
  const repository = image.split(':')[0]!;
  return existsSync(join(STANDINS, repository, 'Dockerfile')) ? repository : null;
}

/**
 * Every image in `images` present: kept when pulled before, pulled when a registry answers,
 * else a stand-in: kept when one of the current recipe is there, else built.
 * Returns what was done per image.
 */
export async function ensureImages(
  log: Log,
  dir: string,
  images: readonly string[],
): Promise<Record<string, 'present' | 'pulled' | 'stand-in built'>> {
  const done: Record<string, 'present' | 'pulled' | 'stand-in built'> = {};
  const toBuild: [string, string][] = [];
  for (const image of images) {
    const kind = standinKind(image);
    const label = await imageLabel(log, image);
    if (label === null) {
      done[image] = 'present'; // the real one, pulled before
      continue;
    }
    // A registry that answers wins, over a stand-in of an earlier run too.
    const pulled = await run(log, 'docker', ['pull', image], { timeoutMs: 10 * 60_000 });
    if (pulled.status === 0) {
      log.note(`pulled ${image}`);
      done[image] = 'pulled';
      continue;
    }
    if (label !== undefined && kind && label === recipeHash(kind)) {
      done[image] = 'present';
      continue;
    }
    if (!kind) throw new Error(`${image}: no registry answers and there is no stand-in for it`);
    toBuild.push([image, kind]);
  }
  if (toBuild.length === 0) return done;
  await ensureBase(log);
  // Side by side: most of their time is apt's downloads.
  await Promise.all(
    toBuild.map(async ([image, kind]) => {
      const started = Date.now();
      log.note(`building the stand-in for ${image} (no registry answers)`);
      const context = standinContext(kind, image, dir);
      try {
        await must(log, 'docker', [
          'build',
          '--build-arg',
          `BASE=${BASE_TAG}`,
          '--label',
          `${RECIPE_LABEL}=${recipeHash(kind)}`,
          '-t',
          image,
          context,
        ]);
      } finally {
        rmSync(context, { recursive: true, force: true });
      }
      log.note(`stand-in ${image} in ${Math.round((Date.now() - started) / 1000)} s`);
      done[image] = 'stand-in built';
    }),
  );
  return done;
}

/** The base images the project's Dockerfiles and docker-compose.yml name (not its own). */
export function projectBaseImages(repo: string, composeImages: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of ['backend/Dockerfile', 'nginx/Dockerfile']) {
    const text = readFileSync(join(repo, file), 'utf8');
    const stages = new Set<string>();
    for (const m of text.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)) {
      if (!stages.has(m[1]!)) found.add(m[1]!);
      if (m[2]) stages.add(m[2]);
    }
  }
  for (const image of composeImages) found.add(image);
  return [...found];
}

/** A scratch directory for one run. */
export function runDir(): string {
  return mkdtempSync(join(tmpdir(), 'awhh-compose-'));
}

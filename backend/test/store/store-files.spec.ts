import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreDatabase } from '../../src/store/store.database.js';

// The SQLite store holds personal data and, unless configured, the ticket signing key and the
// door code: nobody but the process's user may read its folder or files.
describe('SQLite store files', () => {
  let root: string;
  let umask: number;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awhh-store-files-'));
    // The widest umask: the modes must not depend on it.
    umask = process.umask(0o000);
  });

  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  const mode = (path: string) => statSync(path).mode & 0o777;

  async function touch(path: string): Promise<void> {
    const store = await StoreDatabase.open({ kind: 'sqlite', path });
    // A write, so the -wal and -shm files exist while the store is open.
    await store.db
      .insertInto('settings')
      .values({ key: `probe-${Math.random()}`, value: 'x', created_at: 0 })
      .execute();
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file)).toBe(0o600);
    await store.close();
  }

  it('creates its folders 0700 and its database, -wal and -shm files 0600', async () => {
    const path = join(root, 'var', 'data', 'awhh.db');
    await touch(path);
    expect(mode(join(root, 'var'))).toBe(0o700);
    expect(mode(join(root, 'var', 'data'))).toBe(0o700);
    expect(mode(path)).toBe(0o600);
  });

  it('makes files a wider umask created before private again', async () => {
    const path = join(root, 'awhh.db');
    await touch(path);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      try {
        chmodSync(file, 0o644);
      } catch {
        // The -wal and -shm files are gone after a clean close.
      }
    }
    await touch(path);
  });

  it('leaves a folder that existed before as it was', async () => {
    chmodSync(root, 0o755);
    await touch(join(root, 'awhh.db'));
    expect(mode(root)).toBe(0o755);
  });
});

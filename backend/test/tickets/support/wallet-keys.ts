import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_PASS_TYPE_ID = 'pass.de.afterwork-hamburg.test';
export const TEST_TEAM_ID = 'AWHH123456';
export const TEST_KEY_PASSPHRASE = 'Wallet-Test-2026';

export interface AppleTestChain {
  dir: string;
  /** The self-signed root the test trusts, as Apple's root stands behind the WWDR. */
  caFile: string;
  /** The APPLE_* variables: the pass certificate and its encrypted key as files, the WWDR as text. */
  env: NodeJS.ProcessEnv;
  remove(): void;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * A chain like Apple's, made at run time with openssl: a root CA, an intermediate in the
 * WWDR's place and a pass type certificate (UID = the pass type id, OU = the team) whose
 * RSA key is encrypted with a passphrase.
 */
export function makeAppleTestChain(): AppleTestChain {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-wallet-'));
  const caExt = 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n';
  writeFileSync(join(dir, 'ca.ext'), caExt);
  writeFileSync(
    join(dir, 'pass.ext'),
    'keyUsage=critical,digitalSignature\nextendedKeyUsage=emailProtection\n',
  );
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=AWHH Test Root CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'wwdr.key',
    '-out',
    'wwdr.csr',
    '-subj',
    '/CN=AWHH Test WWDR',
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'wwdr.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'wwdr.pem',
    '-days',
    '2',
    '-extfile',
    'ca.ext',
  );
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-keyout',
    'pass.key',
    '-passout',
    `pass:${TEST_KEY_PASSPHRASE}`,
    '-out',
    'pass.csr',
    '-subj',
    `/UID=${TEST_PASS_TYPE_ID}/CN=Pass Type ID: ${TEST_PASS_TYPE_ID}/OU=${TEST_TEAM_ID}/O=After Work Hamburg Test`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'pass.csr',
    '-CA',
    'wwdr.pem',
    '-CAkey',
    'wwdr.key',
    '-CAcreateserial',
    '-out',
    'pass.pem',
    '-days',
    '2',
    '-extfile',
    'pass.ext',
  );
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    env: {
      APPLE_PASS_TYPE_ID: TEST_PASS_TYPE_ID,
      APPLE_TEAM_ID: TEST_TEAM_ID,
      APPLE_PASS_CERT: join(dir, 'pass.pem'),
      APPLE_PASS_KEY: join(dir, 'pass.key'),
      APPLE_PASS_KEY_PASSPHRASE: TEST_KEY_PASSPHRASE,
      // As an .env file writes PEM text: one line, newlines as \n.
      APPLE_WWDR_CERT: readFileSync(join(dir, 'wwdr.pem'), 'utf8').trim().replace(/\n/g, '\\n'),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface GoogleTestAccount {
  /** GOOGLE_WALLET_* variables: the issuer and the service account's JSON key as text. */
  env: NodeJS.ProcessEnv;
  clientEmail: string;
  publicKey: KeyObject;
}

export const TEST_ISSUER_ID = '3388000000022222222';

/** A service account key like Google's JSON download, with an RSA key made at run time. */
export function makeGoogleTestAccount(): GoogleTestAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'wallet@awhh-test.iam.gserviceaccount.com';
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'awhh-test',
    private_key_id: 'test-key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
  });
  return {
    env: { GOOGLE_WALLET_ISSUER_ID: TEST_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT: json },
    clientEmail,
    publicKey,
  };
}

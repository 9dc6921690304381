import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificate {
  /** The leaf, as certbot's fullchain.pem (TLS_CERT_FILE). */
  certFile: string;
  /** Its key, as certbot's privkey.pem (TLS_KEY_FILE). */
  keyFile: string;
  /** The test CA that signed the leaf, for clients that verify it. */
  caPem: string;
  /** base64 SHA-256 of the leaf's public key: Chromium's --ignore-certificate-errors-spki-list. */
  spkiPin: string;
}

/**
 * A test CA and a leaf for localhost and 127.0.0.1 signed by it, made with openssl into dir
 * (ECDSA P-256, certbot's default key type), valid for two days.
 */
export function makeTestCertificate(dir: string): TestCertificate {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=AWHH Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ec, '-keyout', 'privkey.pem', '-out', 'leaf.csr', '-subj', '/CN=localhost');
  writeFileSync(
    join(dir, 'leaf.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'fullchain.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  );
  const leaf = new X509Certificate(readFileSync(join(dir, 'fullchain.pem')));
  const spki = leaf.publicKey.export({ type: 'spki', format: 'der' });
  return {
    certFile: join(dir, 'fullchain.pem'),
    keyFile: join(dir, 'privkey.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    spkiPin: createHash('sha256').update(spki).digest('base64'),
  };
}

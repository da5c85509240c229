/**
 * The wallet file (docs/wallet.md § The wallet file): a small JSON container whose contents (any JSON value: the keys, the network,
 * later the sync state) are sealed with tweetnacl's secretbox (XSalsa20-Poly1305) under a key that scrypt derives
 * from the password:
 *
 *   { "format": "umbra-wallet", "version": 1,
 *     "kdf": { "name": "scrypt", "N": 32768, "r": 8, "p": 1, "salt": "<32 bytes hex>" },
 *     "nonce": "<24 bytes hex>", "ciphertext": "<base64>" }
 *
 * Every write goes to a temporary file beside the target, is fsynced, then renamed over the target (and the
 * directory fsynced): a crash or a failed write leaves the previous file whole. The key is derived once per open;
 * `save` seals new contents under the same key with a fresh nonce, so the password is not kept.
 */
import { randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import nacl from 'tweetnacl';
import { UmbraError } from '../core-native/ts/errors.js';
import { parseExactJson, stringifyExactJson } from '../protocol/exact-json.js';

const FORMAT = 'umbra-wallet';
const VERSION = 1;
const SALT_BYTES = 32;

export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** 2^15 × 8 × 128 bytes = 32 MiB of memory, about 0.1 s per derivation. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 1 << 15, r: 8, p: 1 };
const SCRYPT_WORK_OF_OURS = DEFAULT_SCRYPT.N * DEFAULT_SCRYPT.r * DEFAULT_SCRYPT.p;
/**
 * The most a file may ask for: N·r·p at most 8× ours — scrypt's memory is 128·N·r bytes (256 MiB at the bound) and
 * its time grows with N·r·p (under a second at the bound, about 0.1 s for ours) — and p at most 2.
 */
const MAX_SCRYPT_WORK = 8 * SCRYPT_WORK_OF_OURS;
const MAX_SCRYPT_P = 2;

interface KdfRecord extends ScryptParams {
  readonly name: 'scrypt';
  readonly salt: string;
}

export enum WalletFileErrorCode {
  /** A new wallet file would replace an existing file. */
  Exists = 'wallet-file.exists',
  Unwritable = 'wallet-file.unwritable',
  Missing = 'wallet-file.missing',
  Unreadable = 'wallet-file.unreadable',
  /** The file is not a wallet file of a version this program reads. */
  Damaged = 'wallet-file.damaged',
  /** The password does not open the file (or its ciphertext was altered). */
  BadPassword = 'wallet-file.bad-password',
  /** The file opens but its contents are not JSON. */
  BadContents = 'wallet-file.bad-contents',
  /** The contents are JSON but not a wallet's keys. */
  NotAWallet = 'wallet-file.not-a-wallet',
  /** The contents hold a history entry that cannot be read (a field of the wrong kind). */
  BadHistory = 'wallet-file.bad-history',
}

export class WalletFileError extends UmbraError<WalletFileErrorCode> {
  override readonly name = 'WalletFileError';
}

function deriveKey(password: string, salt: Uint8Array, { N, r, p }: ScryptParams): Promise<Uint8Array> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r * p };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, nacl.secretbox.keyLength, options, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    ),
  );
}

/** Writes `contents` to `path` atomically; with `exclusive`, fails instead of replacing an existing file. */
export function writeAtomically(path: string, contents: string | Uint8Array, exclusive: boolean): void {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A hard link cannot replace an existing file, so `exclusive` holds even against a concurrent writer.
    if (exclusive) linkSync(temporary, path);
    else renameSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (exclusive && code === 'EEXIST')
      throw new WalletFileError(
        WalletFileErrorCode.Exists,
        `${path} already exists; a new wallet never replaces a file`,
      );
    throw new WalletFileError(
      WalletFileErrorCode.Unwritable,
      `cannot write wallet file ${path}: ${code ?? (error as Error).message}`,
    );
  } finally {
    rmSync(temporary, { force: true });
  }
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic there.
  }
}

const isInteger = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** The checked fields of a container, or a message saying what is wrong with it. */
function parseContainer(
  text: string,
): { kdf: KdfRecord; salt: Uint8Array; nonce: Uint8Array; ciphertext: Uint8Array } | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  const file = json as Record<string, unknown>;
  if (typeof json !== 'object' || json === null || file['format'] !== FORMAT) return `it is not an ${FORMAT} file`;
  if (file['version'] !== VERSION)
    return `version ${JSON.stringify(file['version'])} is not supported (this program reads version ${VERSION})`;
  const kdf = file['kdf'] as Record<string, unknown> | undefined;
  if (typeof kdf !== 'object' || kdf === null || kdf['name'] !== 'scrypt') return "'kdf' must name scrypt";
  const { N, r, p, salt } = kdf;
  const unbounded = scryptBeyondBounds(N, r, p);
  if (unbounded) return unbounded;
  const hexOf = (value: unknown, bytes: number): Uint8Array | null =>
    typeof value === 'string' && value.length === 2 * bytes && /^[0-9a-f]*$/.test(value)
      ? new Uint8Array(Buffer.from(value, 'hex'))
      : null;
  const saltBytes = hexOf(salt, SALT_BYTES);
  const nonce = hexOf(file['nonce'], nacl.secretbox.nonceLength);
  if (!saltBytes) return `'kdf.salt' must be ${SALT_BYTES} bytes of hex`;
  if (!nonce) return `'nonce' must be ${nacl.secretbox.nonceLength} bytes of hex`;
  const ciphertext = file['ciphertext'];
  if (typeof ciphertext !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(ciphertext) || ciphertext.length % 4 !== 0)
    return "'ciphertext' must be base64";
  return {
    // The bounds above checked that N, r and p are integers.
    kdf: { name: 'scrypt', N: N as number, r: r as number, p: p as number, salt: salt as string },
    salt: saltBytes,
    nonce,
    ciphertext: new Uint8Array(Buffer.from(ciphertext, 'base64')),
  };
}

/**
 * Why scrypt parameters are refused, if they are: the bounds keep a crafted file from asking for more memory or work
 * than our own files use, with headroom. Undefined when they are within the bounds.
 */
function scryptBeyondBounds(N: unknown, r: unknown, p: unknown): string | undefined {
  if (!isInteger(N, 2, MAX_SCRYPT_WORK) || (N & (N - 1)) !== 0)
    return `'kdf.N' must be a power of two up to 2^${Math.log2(MAX_SCRYPT_WORK)}`;
  if (!isInteger(r, 1, 32) || !isInteger(p, 1, MAX_SCRYPT_P))
    return `'kdf.r' must be 1 … 32 and 'kdf.p' 1 … ${MAX_SCRYPT_P}`;
  if (N * r * p > MAX_SCRYPT_WORK)
    return `'kdf' asks for N·r·p = ${N * r * p}, more than ${MAX_SCRYPT_WORK} (${MAX_SCRYPT_WORK / SCRYPT_WORK_OF_OURS} times what Umbra's files use: at most ${(128 * MAX_SCRYPT_WORK) / 2 ** 20} MiB of memory)`;
  return undefined;
}

export class WalletFile {
  private constructor(
    readonly path: string,
    private readonly key: Uint8Array,
    private readonly kdf: KdfRecord,
    private current: unknown,
  ) {}

  /** Creates a new wallet file holding `contents`; an existing file at `path` is never replaced. */
  static async create(
    path: string,
    password: string,
    contents: unknown,
    scrypt: ScryptParams = DEFAULT_SCRYPT,
  ): Promise<WalletFile> {
    // A file this program could not open again is never written.
    const unbounded = scryptBeyondBounds(scrypt.N, scrypt.r, scrypt.p);
    if (unbounded) throw new RangeError(`cannot create a wallet file with these scrypt parameters: ${unbounded}`);
    const salt = randomBytes(SALT_BYTES);
    const kdf: KdfRecord = { name: 'scrypt', N: scrypt.N, r: scrypt.r, p: scrypt.p, salt: salt.toString('hex') };
    const file = new WalletFile(path, await deriveKey(password, salt, scrypt), kdf, contents);
    file.write(contents, true);
    return file;
  }

  /** Opens and decrypts a wallet file; a missing, unreadable or corrupt file and a wrong password are clear errors. */
  static async open(path: string, password: string): Promise<WalletFile> {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw new WalletFileError(WalletFileErrorCode.Missing, `wallet file ${path} does not exist`);
      throw new WalletFileError(
        WalletFileErrorCode.Unreadable,
        `cannot read wallet file ${path}: ${code ?? (error as Error).message}`,
      );
    }
    const parsed = parseContainer(text);
    if (typeof parsed === 'string')
      throw new WalletFileError(
        WalletFileErrorCode.Damaged,
        `wallet file ${path} is damaged or not a wallet file: ${parsed}`,
      );
    const key = await deriveKey(password, parsed.salt, parsed.kdf);
    const plain = nacl.secretbox.open(parsed.ciphertext, parsed.nonce, key);
    // secretbox authenticates: a wrong key and altered bytes both fail here, and the wrong password is the usual cause.
    if (!plain)
      throw new WalletFileError(
        WalletFileErrorCode.BadPassword,
        `wrong password for wallet file ${path} (or the file was altered)`,
      );
    let contents: unknown;
    try {
      contents = parseExactJson(Buffer.from(plain).toString('utf8'));
    } catch {
      throw new WalletFileError(
        WalletFileErrorCode.BadContents,
        `wallet file ${path} decrypts but its contents are not JSON`,
      );
    }
    return new WalletFile(path, key, parsed.kdf, contents);
  }

  /** The decrypted contents (a JSON value). */
  get contents(): unknown {
    return this.current;
  }

  /** Seals `contents` and replaces the file atomically; on failure the file on disk keeps its previous contents. */
  save(contents: unknown): void {
    this.write(contents, false);
    this.current = contents;
  }

  private write(contents: unknown, exclusive: boolean): void {
    const nonce = randomBytes(nacl.secretbox.nonceLength);
    const ciphertext = nacl.secretbox(new TextEncoder().encode(stringifyExactJson(contents)), nonce, this.key);
    const container = {
      format: FORMAT,
      version: VERSION,
      kdf: this.kdf,
      nonce: nonce.toString('hex'),
      ciphertext: Buffer.from(ciphertext).toString('base64'),
    };
    writeAtomically(this.path, `${JSON.stringify(container, null, 2)}\n`, exclusive);
  }
}

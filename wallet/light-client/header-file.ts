/**
 * The verified header chain on disk, beside the wallet file (`<wallet file>.headers`). Per block it keeps only what
 * later checks and proofs need — id, timestamp, difficulty, state root; the height follows from the position and the
 * cumulative work from the difficulties — after a head naming the network and the start:
 *
 *   "UMBRAHDR" ‖ uvarint version (1) ‖ uvarint name length ‖ network name ‖ uvarint first height
 *   ‖ byte 1 + u64be timestamp of the block before the first (or byte 0 when the first is genesis)
 *   ‖ uvarint cumulative work through the first ‖ uvarint count
 *   ‖ count × (32 B id ‖ 32 B state root ‖ u64be timestamp ‖ uvarint difficulty)
 *   ‖ 32 B SHA3-256 of everything before
 *
 * Every write replaces the file atomically (a temporary file renamed over it), so a crash leaves the previous chain.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Core } from '../../core-native/ts/core.js';
import { ByteReader, ByteWriter, DecodeError, equalBytes } from '../../protocol/bytes.js';
import type { ChainHeader } from '../../protocol/chain/header-chain.js';
import { isNetworkName, NETWORK_NAMES } from '../../protocol/network.js';
import { WalletError, WalletErrorCode } from '../wallet-error.js';
import { writeAtomically } from '../wallet-file.js';
import { VerifiedChain } from './verified-chain.js';

const MAGIC = new TextEncoder().encode('UMBRAHDR');
const VERSION = 1;
const CHECKSUM_BYTES = 32;
const LONGEST_NETWORK_NAME = Math.max(...NETWORK_NAMES.map((name) => name.length));

/** Where the header chain of the wallet in `walletFile` is kept. */
export const headerFilePath = (walletFile: string): string => `${walletFile}.headers`;

export function encodeHeaderFile(core: Core, chain: VerifiedChain): Uint8Array {
  const name = new TextEncoder().encode(chain.start.network);
  const writer = new ByteWriter().bytes(MAGIC).uvarint(VERSION).uvarint(name.length).bytes(name);
  writer.uvarint(chain.first.height);
  if (chain.start.parentTimestamp === null) writer.byte(0);
  else writer.byte(1).u64be(chain.start.parentTimestamp);
  const headers = chain.all();
  writer.uvarint(chain.first.cumulativeWork).uvarint(headers.length);
  for (const header of headers)
    writer.bytes(header.id, 32).bytes(header.stateRoot, 32).u64be(header.timestamp).uvarint(header.difficulty);
  const body = writer.finish();
  return new ByteWriter().bytes(body).bytes(core.sha3_256(body)).finish();
}

export function decodeHeaderFile(core: Core, bytes: Uint8Array): VerifiedChain {
  const body = bytes.subarray(0, Math.max(0, bytes.length - CHECKSUM_BYTES));
  if (bytes.length < MAGIC.length + CHECKSUM_BYTES || !equalBytes(body.subarray(0, MAGIC.length), MAGIC))
    throw new DecodeError('not a header file');
  if (!equalBytes(core.sha3_256(body), bytes.subarray(body.length)))
    throw new DecodeError('its checksum does not match (the file was altered or cut short)');
  const reader = new ByteReader(body.subarray(MAGIC.length), 'header file');
  const version = reader.smallUvarint('version', 0xff);
  if (version !== VERSION) reader.fail(`version ${version} is not one this wallet reads`);
  const network = new TextDecoder().decode(
    reader.bytes(reader.smallUvarint('network name length', LONGEST_NETWORK_NAME), 'network name'),
  );
  if (!isNetworkName(network)) return reader.fail(`unknown network ${JSON.stringify(network)}`);
  const firstHeight = reader.uvarint('first height');
  const hasParent = reader.byte('parent flag');
  if (hasParent > 1) reader.fail(`parent flag ${hasParent} is neither 0 nor 1`);
  const parentTimestamp = hasParent === 1 ? reader.u64be('parent timestamp') : null;
  let cumulativeWork = reader.uvarint('first cumulative work');
  const count = reader.uvarint('header count');
  if (count === 0n || count * 73n > BigInt(reader.remaining))
    reader.fail(`header count ${count} does not fit the file`);
  const headers: ChainHeader[] = [];
  for (let i = 0n; i < count; i++) {
    const id = reader.bytes(32, 'id');
    const stateRoot = reader.bytes(32, 'state root');
    const timestamp = reader.u64be('timestamp');
    const difficulty = reader.uvarint('difficulty');
    if (i > 0n) cumulativeWork += difficulty;
    headers.push({ id, height: firstHeight + i, timestamp, difficulty, cumulativeWork, stateRoot });
  }
  reader.end();
  return new VerifiedChain({ network, parentTimestamp }, headers);
}

/** The chain kept at `path`, or undefined when there is no file yet. */
export function readHeaderFile(core: Core, path: string): VerifiedChain | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return decodeHeaderFile(core, readFileSync(path));
  } catch (error) {
    const reason = error instanceof DecodeError ? error.message : (error as NodeJS.ErrnoException).code;
    throw new WalletError(
      WalletErrorCode.HeaderFileDamaged,
      `cannot read the header file ${path}: ${reason ?? (error as Error).message}; delete it to verify the headers again`,
    );
  }
}

/** Replaces the file at `path` with `chain`, atomically. */
export function writeHeaderFile(core: Core, path: string, chain: VerifiedChain): void {
  writeAtomically(path, encodeHeaderFile(core, chain), false);
}

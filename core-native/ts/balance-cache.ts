/**
 * Builds a balance table once and keeps it on disk: `loadOrBuildBalanceTable(core, { dir, base })` reads
 * `<dir>/balance-v<format version>-<bits>-<base id>.bin` when present and valid, else builds the table and writes it atomically
 * (temporary file + rename, so a crash never leaves a half-written table); when the directory cannot be written,
 * the table is still returned, just not cached. Either implementation can read a table
 * the other wrote.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BALANCE_TABLE_VERSION, type BalanceTable } from './balance.js';
import type { Core } from './core.js';

export interface BalanceCacheOptions {
  /** Directory holding cached tables (created if missing). */
  dir: string;
  /** The base point G (64 bytes), e.g. `core.generators('UMBRA').G`. */
  base: Uint8Array;
  /** Table size (default: the implementation's `defaultBalanceTableBits`). */
  bits?: number;
}

export function balanceTablePath(core: Core, options: BalanceCacheOptions, version = BALANCE_TABLE_VERSION): string {
  const bits = options.bits ?? core.defaultBalanceTableBits;
  const baseId = Buffer.from(core.keccak256(options.base).subarray(0, 8)).toString('hex');
  // Format 1 had no version in the name.
  return join(options.dir, `balance-${version === 1 ? '' : `v${version}-`}${bits}-${baseId}.bin`);
}

export function loadOrBuildBalanceTable(core: Core, options: BalanceCacheOptions): BalanceTable {
  const bits = options.bits ?? core.defaultBalanceTableBits;
  const path = balanceTablePath(core, { ...options, bits });
  try {
    // A view of the file's buffer, not a copy: the table is ≈ 8.3 MB natively.
    const bytes = readFileSync(path);
    const table = core.loadBalanceTable(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    if (table.bits === bits && Buffer.from(table.base).equals(Buffer.from(options.base))) return table;
  } catch {
    // missing or unreadable: rebuild below
  }
  const table = core.buildBalanceTable(options.base, bits);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(options.dir, { recursive: true });
    writeFileSync(temporary, table.serialize());
    renameSync(temporary, path);
    // The same table in an older format is never read again (≈ 16 MB for format 1).
    for (let version = 1; version < BALANCE_TABLE_VERSION; version++)
      rmSync(balanceTablePath(core, { ...options, bits }, version), { force: true });
  } catch {
    // The cache only saves time: an unwritable directory must not stop balance decoding.
    if (existsSync(temporary)) rmSync(temporary);
  }
  return table;
}

/**
 * Point-side helpers for the transfer proof, over the Core interface: multi-scalar multiplications collected term
 * by term and run as one `g1Msm` call, point negation, multiplication by a secret, and the Fiat–Shamir hash
 * (docs/protocol.md § Transfer proofs, "Transcript": Keccak-256 of the concatenated inputs, points as 64-byte
 * x ‖ y, scalars as 32 bytes big-endian, read mod n).
 */
import type { Core } from '../core.js';
import { FIELD_PRIME as P, type Generators, type MsmTable } from '../curve.js';
import { bigintToBytes32BE, readUint256BE, writeUint256BE } from '../bigint-bytes.js';
import { mod, N } from './field.js';

export const POINT = 64;
export const INFINITY = new Uint8Array(POINT);

export function isInfinity(point: Uint8Array): boolean {
  for (let i = 0; i < POINT; i++) if (point[i] !== 0) return false;
  return true;
}

/** −P: (x, p − y); infinity stays infinity. */
export function negatePoint(point: Uint8Array): Uint8Array {
  if (isInfinity(point)) return INFINITY;
  const out = point.slice();
  writeUint256BE(out, 32, P - readUint256BE(point, 32));
  return out;
}

/** The i-th 64-byte point of a concatenated buffer (a view, not a copy). */
export const pointAt = (buffer: Uint8Array, i: number): Uint8Array => buffer.subarray(i * POINT, (i + 1) * POINT);

/** The points of a list laid end to end, the buffer form `Msm.addMany` takes. */
export function concatPoints(points: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(points.length * POINT);
  points.forEach((point, i) => out.set(point, i * POINT));
  return out;
}

/** k·P for a secret scalar k, by the Core's constant-time multiplication. */
export const mulSecret = (core: Core, point: Uint8Array, k: bigint): Uint8Array =>
  core.g1MulSecret(point, bigintToBytes32BE(mod(k)));

/** Σ kᵢ·Pᵢ, collected term by term; zero scalars and infinity points are dropped. */
export class Msm {
  private readonly points: Uint8Array[] = [];
  private readonly scalars: bigint[] = [];

  add(point: Uint8Array, scalar: bigint): this {
    const k = scalar >= 0n && scalar < N ? scalar : mod(scalar);
    if (k !== 0n && !isInfinity(point)) {
      this.points.push(point);
      this.scalars.push(k);
    }
    return this;
  }

  /** Adds Σ scalars[i]·points[i] for a concatenated point buffer. */
  addMany(points: Uint8Array, scalars: readonly bigint[]): this {
    for (let i = 0; i < scalars.length; i++) this.add(pointAt(points, i), scalars[i]!);
    return this;
  }

  get size(): number {
    return this.points.length;
  }

  /** The sum, as a 64-byte point (infinity is 64 zero bytes). */
  run(core: Core): Uint8Array {
    const n = this.points.length;
    if (n === 0) return INFINITY.slice();
    const points = new Uint8Array(n * POINT);
    const scalars = new Uint8Array(n * 32);
    for (let i = 0; i < n; i++) {
      points.set(this.points[i]!, i * POINT);
      writeUint256BE(scalars, i * 32, this.scalars[i]!);
    }
    return core.g1Msm(points, scalars);
  }
}

/** The core's MSM table of a generator set's H, Gs[0..128], Hs[0..128], built on first use. */
const generatorTables = new WeakMap<Core, WeakMap<Generators, MsmTable>>();

function generatorTable(core: Core, gens: Generators): MsmTable {
  let perCore = generatorTables.get(core);
  if (!perCore) generatorTables.set(core, (perCore = new WeakMap()));
  let table = perCore.get(gens);
  if (!table) {
    const bases = new Uint8Array(gens.H.length + gens.Gs.length + gens.Hs.length);
    bases.set(gens.H, 0);
    bases.set(gens.Gs, POINT);
    bases.set(gens.Hs, POINT + gens.Gs.length);
    table = core.g1MsmTable(bases);
    perCore.set(gens, table);
  }
  return table;
}

/**
 * Σ kᵢ·Bᵢ over the generators H, Gs[i] and Hs[i], collected term by term and run on the core's precomputed table
 * of them (much faster than `Msm` for the prover's many MSMs over the same generators).
 */
export class GeneratorMsm {
  private readonly scalars: bigint[];

  constructor(
    private readonly core: Core,
    private readonly gens: Generators,
  ) {
    this.scalars = new Array<bigint>(1 + (gens.Gs.length + gens.Hs.length) / POINT).fill(0n);
  }

  private add(index: number, scalar: bigint): this {
    this.scalars[index] = mod(this.scalars[index]! + scalar);
    return this;
  }

  h(scalar: bigint): this {
    return this.add(0, scalar);
  }

  gs(i: number, scalar: bigint): this {
    return this.add(1 + i, scalar);
  }

  hs(i: number, scalar: bigint): this {
    return this.add(1 + this.gens.Gs.length / POINT + i, scalar);
  }

  run(): Uint8Array {
    const scalars = new Uint8Array(this.scalars.length * 32);
    this.scalars.forEach((k, i) => writeUint256BE(scalars, i * 32, k));
    return generatorTable(this.core, this.gens).run(scalars);
  }
}

/** Hs(parts): Keccak-256 of the concatenation (bigints as 32-byte scalars), as an integer mod n. */
export function challenge(core: Core, parts: readonly (Uint8Array | bigint)[]): bigint {
  let length = 0;
  for (const part of parts) length += typeof part === 'bigint' ? 32 : part.length;
  const data = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'bigint') {
      writeUint256BE(data, at, part);
      at += 32;
    } else {
      data.set(part, at);
      at += part.length;
    }
  }
  return mod(readUint256BE(core.keccak256(data)));
}

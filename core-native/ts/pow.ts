/** Proof of work: AstroBWTv3 with Umbra's own op table (reference-protocol §6, DESIGN §3 "Proof of work"). */
export interface PowCore {
  /** The 32-byte AstroBWTv3 hash of a work blob (e.g. a 48-byte miniblock). */
  powHash(input: Uint8Array): Uint8Array;
}

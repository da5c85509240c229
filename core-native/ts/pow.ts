/** Proof of work: AstroBWTv3 with Umbra's own op table (docs/protocol.md § Proof of work). */
export interface PowCore {
  /** The 32-byte AstroBWTv3 hash of a work blob (e.g. a 48-byte miniblock). */
  powHash(input: Uint8Array): Uint8Array;
}

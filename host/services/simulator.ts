/** What `umbra simulator` asks of the `simulator` plugin (registered as `simulator`) to get its wallets ready. */
export interface SimulatorAccount {
  secretKey: Uint8Array;
  /** 33-byte compressed key. */
  publicKey: Uint8Array;
}

export interface SimulatorService {
  /** Mines `blocks` blocks now, for the premine key (after any block in progress); returns their ids in hex. */
  mine(blocks: number): Promise<string[]>;
  /**
   * Registers every account not registered yet and pays each that holds less than `amount` the difference from the
   * premine (so an interrupted start is completed by the next); returns how many were paid.
   */
  registerAndFund(accounts: readonly SimulatorAccount[], amount: bigint): Promise<number>;
  /** Calls `listener` after each SIMULATOR.Revert, which answers once every listener is done. */
  onRevert(listener: () => Promise<void>): () => void;
}

/** What `umbra simulator` asks of the `simulator` plugin (registered as `simulator`) to get its wallets ready. */
export interface SimulatorAccount {
  secretKey: Uint8Array;
  /** 33-byte compressed key. */
  publicKey: Uint8Array;
}

export interface SimulatorService {
  /** Mines `blocks` blocks now, for the premine key (after any block in progress); returns their ids in hex. */
  mine(blocks: number): Promise<string[]>;
  /** Registers every account not registered yet and pays each of them `amount` from the premine; returns how many were new. */
  registerAndFund(accounts: readonly SimulatorAccount[], amount: bigint): Promise<number>;
}

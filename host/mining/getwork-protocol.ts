/**
 * The getwork protocol's messages (docs/mining.md § The getwork protocol): JSON text frames over a WebSocket opened at
 * `/ws/<wallet address>`. The daemon's getwork server and `umbra miner` both speak it.
 */

/** Server → miner: work to do, sent on connecting and whenever the chain's top or the miniblock pool changes. */
export interface JobMessage {
  type: 'job';
  job_id: string;
  /** The 48-byte miniblock to solve, hex; the miner varies its flags (bytes 32–35) and nonce (bytes 36–47). */
  blob: string;
  /** The difficulty the blob's AstroBWTv3 hash must meet, decimal. */
  difficulty: string;
  height: number;
  /** Whether this is the block's final miniblock (9× the block difficulty). */
  final: boolean;
}

/** Server → miner: the answer to one submission. */
export type ResultMessage =
  | { type: 'result'; job_id: string; accepted: true; block: boolean; block_id?: string }
  | { type: 'result'; job_id: string; accepted: false; reason: string };

/** Server → miner: why the server closes the connection (the close frame carries the same reason, shortened). */
export interface ErrorMessage {
  type: 'error';
  reason: string;
}

/** Miner → server: a solved job. */
export interface SubmitMessage {
  type: 'submit';
  job_id: string;
  /** The solved 48-byte miniblock, hex. */
  blob: string;
}

export type ServerMessage = JobMessage | ResultMessage | ErrorMessage;

/** Largest message either side accepts, bytes: a submission is about 150. */
export const GETWORK_MAX_MESSAGE_BYTES = 1024;

/** The path a miner connects to. */
export const getworkPath = (address: string): string => `/ws/${encodeURIComponent(address)}`;

/** WebSocket close codes the server uses. */
export const GetworkClose = {
  /** The message was not JSON, or not a message of this protocol. */
  BadMessage: 1003,
  /** The message is longer than GETWORK_MAX_MESSAGE_BYTES. */
  TooBig: 1009,
  /** The address is not registered, not of this network, or the miner submits too often. */
  Refused: 1008,
  /** The server holds its most connections. */
  TooMany: 1013,
} as const;

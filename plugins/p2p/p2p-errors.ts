/** Why this node refuses what a peer sent: the peer is at fault, and is penalised or dropped for it. */
export const P2pErrorCode = {
  /** A stream that breaks the framing rules. */
  BadFrame: 'p2p.bad-frame',
  /** A message whose body does not decode or has the wrong shape. */
  BadMessage: 'p2p.bad-message',
  /** A block the chain rejects, or not the one asked for. */
  BlockRefused: 'p2p.block-refused',
} as const;
export type P2pErrorCode = (typeof P2pErrorCode)[keyof typeof P2pErrorCode];

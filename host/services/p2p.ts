/** The P2P node (registered by the `p2p` plugin as `p2p`), as the rest of the process reads it. */
export interface PeerCounts {
  incoming: number;
  outgoing: number;
  white: number;
  grey: number;
}

export interface P2pService {
  /** Connection and peer-list figures, as NODE.GetInfo reports them. */
  counts(): PeerCounts;
  /** Peers that completed the handshake, with the chain height each reported. */
  peers(): readonly { readonly height: number }[];
}

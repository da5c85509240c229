/**
 * The three networks Umbra runs (docs/protocol.md § Networks): their default ports, address prefixes and the
 * domain string the curve generators are derived from.
 */
export const NETWORK_NAMES = ['mainnet', 'testnet', 'simulator'] as const;
export type NetworkName = (typeof NETWORK_NAMES)[number];

export interface NetworkParams {
  readonly name: NetworkName;
  /** Whether this is a test network (testnet and simulator). */
  readonly testnet: boolean;
  readonly defaultRpcPort: number;
  readonly defaultWalletRpcPort: number;
  /** Default P2P port; the simulator runs without P2P unless asked. */
  readonly defaultP2pPort: number | null;
  /** bech32 prefix of a plain address. */
  readonly addressPrefix: string;
  /** bech32 prefix of an integrated address (an address carrying RPC arguments). */
  readonly integratedAddressPrefix: string;
  /** Domain string of the generator set (docs/cryptography.md § Generators). */
  readonly generatorDomain: string;
  /** `host:port` of well-known peers a node with an empty peer book dials (none published yet). */
  readonly seedPeers: readonly string[];
}

export const NETWORKS: Readonly<Record<NetworkName, NetworkParams>> = {
  mainnet: {
    name: 'mainnet',
    testnet: false,
    defaultRpcPort: 10102,
    defaultWalletRpcPort: 10103,
    defaultP2pPort: 10101,
    addressPrefix: 'umb',
    integratedAddressPrefix: 'umbi',
    generatorDomain: 'UMBRA',
    seedPeers: [],
  },
  testnet: {
    name: 'testnet',
    testnet: true,
    defaultRpcPort: 40402,
    defaultWalletRpcPort: 40403,
    defaultP2pPort: 40401,
    addressPrefix: 'umbt',
    integratedAddressPrefix: 'umbti',
    generatorDomain: 'UMBRA',
    seedPeers: [],
  },
  simulator: {
    name: 'simulator',
    testnet: true,
    defaultRpcPort: 20000,
    defaultWalletRpcPort: 30000,
    defaultP2pPort: null,
    addressPrefix: 'umbt',
    integratedAddressPrefix: 'umbti',
    generatorDomain: 'UMBRA',
    seedPeers: [],
  },
};

/** The bech32 prefix of payment proofs (docs/cryptography.md § Keys and addresses), the same on every network. */
export const PAYMENT_PROOF_PREFIX = 'umbproof';

export function isNetworkName(value: unknown): value is NetworkName {
  return typeof value === 'string' && (NETWORK_NAMES as readonly string[]).includes(value);
}

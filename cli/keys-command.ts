/**
 * `umbra keys`: key tools for users and scripts, no node needed.
 *   keys new [--network N] [--json]   a fresh 24-word mnemonic with its secret key, public key and address
 *   keys inspect ADDRESS [--json]     validates a plain or integrated address: network, key, embedded arguments
 * Bad input throws an Error with a clear message; the CLI's `main` prints it on stderr and exits 1. With `--json` an
 * invalid address is answered on stdout too, as `{"error": {"code": "address.…", "message"}}`.
 */
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { loadCore } from '../core-native/ts/index.js';
import { curvePointCheck, encodeAddress, splitAddress } from '../protocol/address.js';
import { answeringFailuresAsJson } from './json-failure.js';
import { publicKeyOf } from '../protocol/keys.js';
import { mnemonicToSecretKey, newMnemonic } from '../protocol/mnemonic.js';
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../protocol/network.js';
import { rpcArgumentToExactJson } from '../protocol/rpc-arguments.js';
import { stringifyExactJson } from '../protocol/exact-json.js';

export interface KeysCommandIo {
  /** Where results go (default: process.stdout). */
  write(text: string): void;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const json = (value: unknown): string => `${stringifyExactJson(value, 2)}\n`;
const table = (rows: [string, string][]): string => {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}\n`).join('');
};

export function keysCommand(io: KeysCommandIo = { write: (text) => process.stdout.write(text) }): Command {
  const keys = new Command('keys').description(COMMAND_SUMMARIES.keys);

  keys
    .command('new')
    .description('print a fresh 24-word mnemonic, its secret key, public key and address')
    .addOption(new Option('--network <name>', 'network of the address').choices(NETWORK_NAMES).default('mainnet'))
    .option('--json', 'print {mnemonic, secret_key, public_key, address} as JSON')
    .action(async (options: { network: NetworkName; json?: boolean }) => {
      const core = await loadCore();
      const mnemonic = newMnemonic();
      const secretKey = mnemonicToSecretKey(mnemonic);
      const publicKey = publicKeyOf(core, secretKey, NETWORKS[options.network].generatorDomain);
      const result = {
        mnemonic,
        secret_key: hex(secretKey),
        public_key: hex(publicKey),
        address: encodeAddress(options.network, publicKey),
      };
      if (options.json) return io.write(json(result));
      io.write(
        table([
          ['network', options.network],
          ['mnemonic', result.mnemonic],
          ['secret key', result.secret_key],
          ['public key', result.public_key],
          ['address', result.address],
        ]) + 'Keep the mnemonic and the secret key private: anyone who has either controls the funds.\n',
      );
    });

  keys
    .command('inspect')
    .description('validate an address or integrated address and show its network, key and arguments')
    .argument('<address>', 'the address to check')
    .option('--json', 'print the result as JSON')
    .action((address: string, options: { json?: boolean }) =>
      answeringFailuresAsJson(
        options.json,
        (text) => io.write(text),
        () => inspect(io, address, options.json),
      ),
    );

  return keys;
}

/** `keys inspect`: the address's network, key and arguments, as a table or JSON. */
async function inspect(io: KeysCommandIo, address: string, asJson: boolean | undefined): Promise<void> {
  const core = await loadCore();
  const split = splitAddress(address.trim(), undefined, curvePointCheck(core));
  const networks = NETWORK_NAMES.filter((n) => NETWORKS[n].addressPrefix === NETWORKS[split.network].addressPrefix);
  const args = split.args.map(rpcArgumentToExactJson);
  const result = {
    valid: true,
    network: split.network,
    networks,
    integrated: split.integrated,
    public_key: hex(split.publicKey),
    address: split.address,
    payload_rpc: args,
  };
  if (asJson) return io.write(json(result));
  const rows: [string, string][] = [
    ['valid', 'yes'],
    ['network', networks.join(', ')],
    ['type', split.integrated ? 'integrated address' : 'address'],
    ['public key', result.public_key],
  ];
  if (split.integrated) rows.push(['plain address', split.address]);
  rows.push(...args.map((a): [string, string] => [`argument ${a.name} (${a.datatype})`, String(a.value)]));
  io.write(table(rows));
}

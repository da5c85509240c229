/** `umbra keys`: the command function with captured output, and the real CLI once it is wired into bin/umbra. */
import { Command } from 'commander';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { keysCommand } from '../../cli/keys-command.js';
import { buildProgram } from '../../cli/main.js';
import { decodeAddress, encodeAddress, encodeIntegratedAddress } from '../../protocol/address.js';
import { publicKeyOf } from '../../protocol/keys.js';
import { mnemonicToSecretKey } from '../../protocol/mnemonic.js';
import { runCli } from '../helpers/cli.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function run(argv: string[]): Promise<string> {
  let out = '';
  const program = new Command('umbra').exitOverride().addCommand(keysCommand({ write: (text) => (out += text) }));
  await program.parseAsync(['keys', ...argv], { from: 'user' });
  return out;
}

t.test('keys new prints a consistent key set', async (t) => {
  const core = await loadCore();
  const result = JSON.parse(await run(['new', '--network', 'testnet', '--json']));
  t.same(Object.keys(result).sort(), ['address', 'mnemonic', 'public_key', 'secret_key']);
  t.equal(result.mnemonic.split(' ').length, 24);
  t.equal(hex(mnemonicToSecretKey(result.mnemonic)), result.secret_key, 'the mnemonic encodes the secret key');
  t.equal(hex(publicKeyOf(core, mnemonicToSecretKey(result.mnemonic), 'UMBRA')), result.public_key);
  t.match(result.address, /^umbt1/);
  t.equal(hex(decodeAddress(result.address, 'testnet').publicKey), result.public_key);
  const text = await run(['new']);
  t.match(text, /^network: +mainnet$/m);
  t.match(text, /^address: +umb1[a-z0-9]+$/m);
  t.match(text, /^mnemonic: +(\w+ ){23}\w+$/m);
  t.match(text, /Keep the mnemonic/);
});

t.test('keys inspect shows network, key and arguments', async (t) => {
  const core = await loadCore();
  const key = publicKeyOf(core, Uint8Array.from(Buffer.from('11'.repeat(32), 'hex')), 'UMBRA');
  const integrated = encodeIntegratedAddress('testnet', key, [
    { name: 'D', datatype: 'U', value: 1337n },
    { name: 'C', datatype: 'S', value: 'order 7' },
    { name: 'V', datatype: 'U', value: 2n ** 64n - 1n },
  ]);
  const answer = await run(['inspect', integrated, '--json']);
  t.match(answer, /"value": 18446744073709551615\n/, 'a uint64 beyond 2^53 is written with every digit');
  const result = JSON.parse(answer);
  t.same(result, {
    valid: true,
    network: 'testnet',
    networks: ['testnet', 'simulator'],
    integrated: true,
    public_key: hex(key),
    address: encodeAddress('testnet', key),
    payload_rpc: [
      { name: 'C', datatype: 'S', value: 'order 7' },
      { name: 'D', datatype: 'U', value: 1337 },
      { name: 'V', datatype: 'U', value: 2 ** 64 },
    ],
  });
  const text = await run(['inspect', result.address]);
  t.match(text, /^network: +testnet, simulator$/m);
  t.match(text, /^type: +address$/m);
  t.match(text, new RegExp(`^public key: +${hex(key)}$`, 'm'));
  t.match(await run(['inspect', integrated]), /^argument D \(U\): +1337$/m);
  await t.rejects(run(['inspect', 'umb1qqqqqq']), /not a valid address/);
  await t.rejects(
    run(['inspect', result.address.slice(0, -1) + (result.address.endsWith('q') ? 'p' : 'q')]),
    /checksum/i,
  );
  await t.rejects(
    run(['inspect', 'dero1qyyawp87a3ckr9f2j5hnqmxevq3czrr83prc58ylc5889qdt0zf6cqgsr9jmq']),
    /unknown address prefix 'dero'/,
  );
});

t.test('keys inspect --json answers a bad address as a JSON error', async (t) => {
  let out = '';
  const program = new Command('umbra').exitOverride().addCommand(keysCommand({ write: (text) => (out += text) }));
  await t.rejects(program.parseAsync(['keys', 'inspect', 'umb1qqq', '--json'], { from: 'user' }), {
    name: 'AnsweredFailure',
  });
  t.same(JSON.parse(out), {
    ok: false,
    error: {
      code: 'address.too-short',
      message: 'not a valid address: it is too short: 7 characters, an address starting umb1 has 65',
    },
  });
});

const wired = (await buildProgram()).commands.some((c) => c.name() === 'keys');
t.test('through the real CLI', { skip: !wired && 'keys is not wired into bin/umbra yet (cli/main.ts)' }, async (t) => {
  const made = await runCli(['keys', 'new', '--network', 'simulator', '--json']);
  t.equal(made.code, 0);
  const { address } = JSON.parse(made.stdout);
  const inspected = await runCli(['keys', 'inspect', address]);
  t.equal(inspected.code, 0);
  t.match(inspected.stdout, /testnet, simulator/);
  const bad = await runCli(['keys', 'inspect', 'umbt1notanaddress']);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /^umbra: not a valid address/);
  t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  const badJson = await runCli(['keys', 'inspect', 'umbt1notanaddress', '--json']);
  t.equal(badJson.code, 1);
  t.equal(badJson.stderr, '', 'the answer is on stdout only');
  t.same(JSON.parse(badJson.stdout), {
    ok: false,
    error: {
      code: 'address.bad-character',
      message:
        'not a valid address: "o" (character 7) cannot be in an address; after umbt1 come only digits and ' +
        'lower-case letters other than 1, b, i and o',
    },
  });
  const typo = address.slice(0, 20) + (address[20] === 'q' ? 'p' : 'q') + address.slice(21);
  const typoJson = JSON.parse((await runCli(['keys', 'inspect', typo, '--json'])).stdout);
  t.equal(typoJson.error.code, 'address.bad-checksum');
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { loadConfig } from '../../../host/config/load.js';
import { ConfigError, ConfigErrorCode, parseBindAddress } from '../../../host/config/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-config-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

t.test('defaults per network', async (t) => {
  t.equal(loadConfig({}).network, 'mainnet');
  t.equal(loadConfig({}).rpcBind, '127.0.0.1:10102');
  t.equal(loadConfig({ flags: { network: 'testnet' } }).rpcBind, '127.0.0.1:40402');
  t.equal(loadConfig({ flags: { network: 'simulator' } }).rpcBind, '127.0.0.1:20000');
  t.match(loadConfig({ flags: { network: 'testnet' } }).dataDir, /testnet$/);
  t.equal(loadConfig({ defaultNetwork: 'testnet' }).network, 'testnet');
  t.same(loadConfig({}).transports, ['http', 'ws']);
  t.equal(loadConfig({}).store, 'rocksdb');
  t.equal(loadConfig({}).crypto, 'auto');
});

t.test('file values apply and flags override them; the network default follows the file', async (t) => {
  const path = file('a.json', JSON.stringify({ network: 'testnet', store: 'memory', logLevel: 'warn' }));
  const fromFile = loadConfig({ file: path });
  t.equal(fromFile.network, 'testnet');
  t.equal(fromFile.rpcBind, '127.0.0.1:40402', 'defaults of the file network');
  t.equal(fromFile.store, 'memory');
  const overridden = loadConfig({
    file: path,
    flags: { logLevel: 'debug', rpcBind: '0.0.0.0:1234', store: undefined },
  });
  t.equal(overridden.logLevel, 'debug');
  t.equal(overridden.rpcBind, '0.0.0.0:1234');
  t.equal(overridden.store, 'memory', 'undefined flags do not override');
});

t.test('unknown keys and bad values are rejected with a message naming them', async (t) => {
  t.throws(() => loadConfig({ file: file('b.json', JSON.stringify({ colour: 'red' })) }), {
    name: 'ConfigError',
    message: /unknown config key 'colour'/,
  });
  t.throws(() => loadConfig({ flags: { store: 'postgres' } }), {
    message: /command line: 'store' must be one of rocksdb, memory/,
  });
  t.throws(() => loadConfig({ flags: { rpcBind: 'localhost' } }), { message: /'rpcBind' must be host:port/ });
  t.throws(() => loadConfig({ flags: { rpcBind: '127.0.0.1:70000' } }), { message: /'rpcBind' must be host:port/ });
  t.throws(() => loadConfig({ flags: { rpcLogin: 'nocolon' } }), { message: /'rpcLogin' must be user:pass/ });
  t.throws(() => loadConfig({ flags: { rpcMaxBodyBytes: -5 } }), {
    message: /'rpcMaxBodyBytes' must be a positive integer/,
  });
  t.throws(() => loadConfig({ flags: { transports: ['http', 'smoke'] } }), {
    message: /'transports' item 1 must be one of http, ws/,
  });
  t.throws(() => loadConfig({ flags: { network: 'moon' } }), {
    message: /'network' must be one of mainnet, testnet, simulator/,
  });
  t.throws(() => loadConfig({ file: file('c.json', JSON.stringify({ network: 5 })) }), {
    message: /config file .*c\.json: 'network'/,
  });
});

t.test('unreadable or malformed config files', async (t) => {
  t.throws(() => loadConfig({ file: join(dir, 'missing.json') }), {
    name: 'ConfigError',
    code: ConfigErrorCode.BadFile,
    message: /cannot read config file .*missing\.json: ENOENT/,
  });
  t.throws(() => loadConfig({ file: file('d.json', '{ not json') }), { message: /is not valid JSON/ });
  t.throws(() => loadConfig({ file: file('e.json', '[1,2]') }), { message: /must hold a JSON object/ });
  t.ok(new ConfigError(ConfigErrorCode.BadFile, 'x') instanceof UmbraError, 'in the one error model');
});

t.test('P2P settings: listening address per network, peers, limits', async (t) => {
  t.equal(loadConfig({}).p2pBind, '0.0.0.0:10101');
  t.equal(loadConfig({ flags: { network: 'testnet' } }).p2pBind, '0.0.0.0:40401');
  t.equal(loadConfig({ flags: { network: 'simulator' } }).p2pBind, '', 'the simulator does not listen unless asked');
  t.equal(loadConfig({ flags: { network: 'simulator', p2pBind: '127.0.0.1:0' } }).p2pBind, '127.0.0.1:0');
  t.equal(loadConfig({ flags: { p2pBind: '' } }).p2pBind, '', 'empty: do not listen');
  t.same(loadConfig({ flags: { addPeers: ['10.0.0.1:40401', '[::1]:5'] } }).addPeers, ['10.0.0.1:40401', '[::1]:5']);
  t.equal(loadConfig({}).maxPeers, 32);
  t.equal(loadConfig({ flags: { maxPeers: '5' } }).maxPeers, 5);
  t.ok(loadConfig({}).plugins.includes('p2p'), 'a daemon runs p2p');
  t.throws(() => loadConfig({ flags: { p2pBind: 'nowhere' } }), { message: /'p2pBind' must be host:port/ });
  t.throws(() => loadConfig({ flags: { addPeers: ['10.0.0.1'] } }), { message: /'addPeers' item 0 must be host:port/ });
  t.throws(() => loadConfig({ flags: { maxPeers: 0 } }), { message: /'maxPeers' must be a positive integer/ });
  const pinned = '10.0.0.1:40401/p2p/12D3KooWG3jkTB4dRWMpUswe1Jw1GLBr1mBCndyWtGNadC4MrPhq';
  t.same(loadConfig({ flags: { addPeers: [pinned] } }).addPeers, [pinned], 'a peer pinned to its key');
  t.throws(() => loadConfig({ flags: { addPeers: ['10.0.0.1:40401/p2p/not-an-id'] } }), {
    message: /'addPeers' item 0 must be host:port\[\/p2p\/<peer id>\]/,
  });
  t.equal(loadConfig({}).p2pMaxPerIp, 4);
  t.throws(() => loadConfig({ flags: { p2pMaxPerIp: 0 } }), { message: /'p2pMaxPerIp' must be a positive integer/ });
});

t.test('verifyWorkers: one per core on a node, none on the simulator', async (t) => {
  t.equal(loadConfig({}).verifyWorkers, availableParallelism());
  t.equal(loadConfig({ flags: { network: 'simulator' } }).verifyWorkers, 0);
  t.equal(loadConfig({ flags: { verifyWorkers: '3' } }).verifyWorkers, 3);
  t.equal(loadConfig({ flags: { network: 'simulator', verifyWorkers: 2 } }).verifyWorkers, 2);
  t.throws(() => loadConfig({ flags: { verifyWorkers: -1 } }), {
    message: /'verifyWorkers' must be a non-negative integer/,
  });
});

t.test('bind addresses', async (t) => {
  t.same(parseBindAddress('127.0.0.1:40402'), { host: '127.0.0.1', port: 40402 });
  t.same(parseBindAddress('[::1]:0'), { host: '::1', port: 0 });
  t.same(parseBindAddress('localhost:8080'), { host: 'localhost', port: 8080 });
  t.throws(() => parseBindAddress(':80'));
  t.throws(() => parseBindAddress('host:'));
});

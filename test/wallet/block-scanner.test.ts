/**
 * The block scanner on fixture blocks: real transfers (real proofs) mined on a test chain, each block handed to the
 * scanner as the daemon would describe it, seen by the receiver, the sender (with and without its own record of the
 * send), a decoy and the block's miner.
 */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import { NETWORKS } from '../../protocol/network.js';
import { encodeNonceBalance } from '../../protocol/nonce-balance.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { decodeTransaction, TxType } from '../../protocol/transaction.js';
import { NATIVE_SCID } from '../../protocol/transfer-checks.js';
import { BalanceDecoder } from '../../wallet/balance-decoder.js';
import { BlockScanner, IMPLICIT_ZERO, type BlockTransfer, type ChainBlock } from '../../wallet/block-scanner.js';
import type { HistoryEntry } from '../../wallet/history-entry.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { mineBlock, openTestChain } from '../helpers/chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts, type Account } from '../helpers/transfers.js';
import { TEST_BALANCE_TABLE_DIR } from '../helpers/wallet-app.js';

const core = await loadCore();
const fixture = await openTestChain({ core });
const { chain, network } = fixture;
const generators = core.generators(NETWORKS[network].generatorDomain);
const decoder = new BalanceDecoder(core, generators.G, TEST_BALANCE_TABLE_DIR);
const addressOf = (account: Account): string => encodeAddress(network, account.key);
const scannerOf = (account: Account): BlockScanner =>
  new BlockScanner({ core, generators, keys: walletKeys(core, network, account.sk), decoder });

/** The top block as the wallet reads it from the daemon (header fields, transfer transactions with ring addresses). */
function topBlock(): ChainBlock {
  const meta = chain.top;
  const block = chain.block(meta.id)!;
  const txs: BlockTransfer[] = [];
  let fees = 0n;
  for (const id of block.txHashes) {
    const tx = decodeTransaction(chain.storedTransaction(id)!);
    if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) continue;
    for (const payload of tx.payloads) fees += payload.statement.fees;
    txs.push({
      txid: toHex(id),
      tx,
      ring: tx.payloads.map((payload) => payload.statement.ring.map((key) => encodeAddress(network, key))),
    });
  }
  const header = {
    hash: toHex(meta.id),
    height: Number(meta.height),
    topoheight: Number(meta.height),
    timestamp: Number(block.timestamp),
    txcount: block.txHashes.length,
    reward: Number(meta.reward),
    miners: block.miniblocks.map((mb) => (mb.final ? encodeAddress(network, block.minerTx.key) : toHex(mb.keyHash))),
  };
  return { topoheight: Number(meta.height), header, txs, fees };
}

/** An account's encrypted native balance after the top block, as GetEncryptedBalance's hex. */
const balanceData = (account: Account): string => {
  const balance = chain.stateAt().getBalance(NATIVE_SCID, account.key);
  return balance ? toHex(encodeNonceBalance(balance)) : IMPLICIT_ZERO;
};

const PORT: RpcArgument[] = [{ name: 'D', datatype: 'U', value: 7n }];

const [alice, bob, carol, dave] = (await registeredAccounts(fixture, 4)) as [Account, Account, Account, Account];
const premine = premineAccount(fixture);

// Block A: the premine sends 1000 to bob (ring 2, fee 10, destination port 7).
fixture.pool.add(buildTestTransfer(fixture, premine, bob.key, 1000n, { fee: 10n, payloadArgs: PORT }).bytes);
await mineBlock(fixture);
const blockA = topBlock();
const bobAfterA = balanceData(bob);

// Block B: bob sends 300 to alice in a ring of 4 with carol and dave as decoys (fee 20).
fixture.pool.add(
  buildTestTransfer(fixture, bob, alice.key, 300n, { fee: 20n, ringSize: 4, decoys: [carol.key, dave.key] }).bytes,
);
await mineBlock(fixture);
const blockB = topBlock();
const after = { alice: balanceData(alice), bob: balanceData(bob), carol: balanceData(carol) };

t.test('an incoming transfer is an entry with its amount, arguments, sender and block fields', async (t) => {
  const scan = scannerOf(bob).scan(NATIVE_ASSET, blockA, bobAfterA, 0n, []);
  t.equal(scan.amount, 1000n);
  t.same(scan.mined, []);
  t.same(scan.assets, []);
  t.equal(scan.entries.length, 1);
  t.match(scan.entries[0], {
    incoming: true,
    coinbase: false,
    amount: 1000n,
    burn: 0n,
    fees: 10n,
    destination: addressOf(bob),
    sender: encodeAddress(network, premine.key),
    txid: blockA.txs[0]!.txid,
    height: blockA.header.height,
    topoheight: blockA.topoheight,
    blockhash: blockA.header.hash,
    tpos: 0,
    pos: 0,
    args: [{ name: 'D', datatype: 'U', value: 7n }],
  });
  t.not(scan.entries[0]!.proof, '', 'with a payment proof');
});

t.test('the sender finds its own transfer: rebuilt when unknown, confirmed when recorded', async (t) => {
  const bobScanner = scannerOf(bob);
  const rebuilt = bobScanner.scan(NATIVE_ASSET, blockB, after.bob, 1000n, []);
  t.equal(rebuilt.amount, 680n, 'the amount, the fee gone');
  t.equal(rebuilt.entries.length, 1);
  const outgoing = rebuilt.entries[0]!;
  t.match(outgoing, {
    incoming: false,
    amount: 300n,
    fees: 20n,
    destination: addressOf(alice),
    sender: addressOf(bob),
    txid: blockB.txs[0]!.txid,
    height: blockB.header.height,
  });

  const received = scannerOf(alice).scan(NATIVE_ASSET, blockB, after.alice, 0n, []);
  t.equal(received.amount, 300n);
  t.equal(received.entries.length, 1);
  t.equal(outgoing.proof, received.entries[0]!.proof, 'sender and receiver hold the same payment proof');
  const payloadBytes = (data: string): string => Buffer.from(data, 'base64').subarray(1).toString('hex');
  t.equal(payloadBytes(outgoing.data), payloadBytes(received.entries[0]!.data), 'and the same payload');

  const recorded: HistoryEntry = { ...outgoing, height: 0, topoheight: -1, blockhash: '', time: '' };
  const confirmed = bobScanner.scan(NATIVE_ASSET, blockB, after.bob, 1000n, [recorded]);
  t.same(confirmed.entries, [], 'no second entry for a recorded send');
  t.equal(confirmed.mined.length, 1);
  t.equal(confirmed.mined[0]!.entry, recorded);
  t.same(confirmed.mined[0]!.fields, {
    height: outgoing.height,
    topoheight: outgoing.topoheight,
    blockhash: outgoing.blockhash,
    tpos: 0,
    pos: 0,
    txid: outgoing.txid,
    time: outgoing.time,
  });
  t.equal(recorded.topoheight, -1, 'the scanner changes nothing it is given');
  t.equal(confirmed.amount, 680n);
});

t.test('a decoy sees no entry and an unchanged amount', async (t) => {
  t.not(after.carol, balanceData(dave), 'decoys are distinct accounts');
  const scan = scannerOf(carol).scan(NATIVE_ASSET, blockB, after.carol, 0n, []);
  t.same(scan.entries, []);
  t.same(scan.mined, []);
  t.equal(scan.amount, 0n);
});

t.test("a payload of another asset is not that asset's entry; the asset is reported", async (t) => {
  const token = 'ab'.repeat(32);
  const scan = scannerOf(alice).scan(token, blockB, IMPLICIT_ZERO, 0n, []);
  t.same(scan.entries, []);
  t.same(scan.assets, [NATIVE_ASSET]);
  t.equal(scan.amount, 0n, 'the implicit zero');
});

t.test("the miner's share of reward and fees is one coinbase entry", async (t) => {
  // Block C: alice mines every miniblock of a block holding bob's transfer to carol (fee 5).
  fixture.pool.add(buildTestTransfer(fixture, bob, carol.key, 50n, { fee: 5n, ringSize: 2 }).bytes);
  await mineBlock(fixture, alice.key);
  const blockC = topBlock();
  t.equal(blockC.fees, 5n);
  const scan = scannerOf(alice).scan(NATIVE_ASSET, blockC, balanceData(alice), 300n, []);
  const share = BigInt(blockC.header.reward) + 5n;
  t.equal(scan.amount, 300n + share);
  t.equal(scan.entries.length, 1);
  t.match(scan.entries[0], {
    coinbase: true,
    incoming: true,
    amount: share,
    txid: blockC.header.hash,
    blockhash: blockC.header.hash,
    destination: addressOf(alice),
  });
  t.same(
    scannerOf(dave).scan(NATIVE_ASSET, blockC, balanceData(dave), 0n, []).entries,
    [],
    'nothing for an account that neither mined nor took part',
  );
});

t.test('the opening: a balance already there at the registration is a credit', async (t) => {
  const bobScanner = scannerOf(bob);
  const opened = bobScanner.opening(NATIVE_ASSET, blockA.header, blockA.topoheight, bobAfterA);
  t.equal(opened.amount, 1000n);
  t.match(opened.entries, [
    { coinbase: true, incoming: true, amount: 1000n, txid: blockA.header.hash, topoheight: blockA.topoheight },
  ]);
  const token = bobScanner.opening('cd'.repeat(32), blockA.header, blockA.topoheight, IMPLICIT_ZERO);
  t.same(token, { amount: 0n, entries: [] }, 'a token never held opens at zero');
});

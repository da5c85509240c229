/**
 * A transfer's proof statements against the referenced state (protocol/transfer-checks.ts), on a test chain with
 * real proofs: payloads of one asset see the balances the earlier ones leave, and a point that does not decompress is
 * refused naming its payload.
 */
import t from 'tap';
import { NETWORKS } from '../../protocol/network.js';
import { buildTransfer, type PayloadSpec } from '../../protocol/transfer-builder.js';
import { NATIVE_SCID, verifyTransfer } from '../../protocol/transfer-checks.js';
import { TransactionErrorCode } from '../../protocol/transaction-errors.js';
import { encodeRpcArguments } from '../../protocol/rpc-arguments.js';
import { TxType } from '../../protocol/transaction.js';
import { openTestChain } from '../helpers/chain.js';
import { forEachCore } from '../helpers/core-impls.js';
import { balanceOf, premineAccount, premineBalance, registeredAccounts } from '../helpers/transfers.js';

t.test('two payloads of the native coin from one sender', async (t) => {
  await forEachCore(t, async (t, core) => {
    const chain = await openTestChain({ core });
    const [alice, bob] = await registeredAccounts(chain, 2);
    const premine = premineAccount(chain);
    const gens = core.generators(NETWORKS[chain.network].generatorDomain);
    const state = chain.chain.stateAt();
    const balanceAt = (asset: Uint8Array, key: Uint8Array) => state.getBalance(asset, key);
    const payload = (to: Uint8Array, amount: bigint): PayloadSpec => ({
      scid: NATIVE_SCID,
      ring: [premine.key, to],
      senderIndex: 0,
      receiverIndex: 1,
      amount,
      burn: 0n,
      fee: 0n,
      args: encodeRpcArguments([]),
    });
    const top = chain.chain.top;
    const built = buildTransfer(core, gens, {
      type: TxType.Normal,
      secretKey: premine.sk,
      reference: { height: top.height, blid: top.id, roothash: top.stateRoot },
      payloads: [payload(alice!.key, 100n), payload(bob!.key, 200n)],
      balanceAt,
      senderBalance: () => balanceOf(chain, premine, NATIVE_SCID, [premineBalance(chain)]) ?? 0n,
    });
    const verified = verifyTransfer(core, gens, built.tx, built.txid, balanceAt);
    t.equal(verified.length, 2, "the second payload's proof holds against the balances the first one leaves");

    const broken = structuredClone(built.tx);
    broken.payloads[0]!.statement.D = new Uint8Array(33).fill(0xff);
    t.throws(() => verifyTransfer(core, gens, broken, built.txid, balanceAt), {
      code: TransactionErrorCode.NotACurvePoint,
      message: /^payload 0 D is not a curve point: /,
    });
  });
});

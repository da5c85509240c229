import t from 'tap';
import { encodeRpcArguments } from '../../protocol/rpc-arguments.js';
import { callArgs } from '../../wallet/contract-args.js';
import { defaultFee, requestFee } from '../../wallet/fees.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';

const token = 'ab'.repeat(32);
const item = (scid: string) => ({ destination: 'x', amount: 1n, scid, burn: 0n, payloadRpc: [] });

t.test('the default fee: payloads, ring and contract arguments', async (t) => {
  t.equal(defaultFee(1, 16, 0), 120n);
  t.equal(defaultFee(1, 2, 0), 60n);
  t.equal(defaultFee(1, 2, 10), 75n);
});

t.test("a request's fee counts the native payload the sender adds when no item is native", async (t) => {
  t.equal(requestFee({ transfers: [item(NATIVE_ASSET)], ringSize: 16 }), defaultFee(1, 16, 0));
  t.equal(requestFee({ transfers: [item(token)], ringSize: 16 }), defaultFee(2, 16, 0));
  const scRpc = callArgs(token, [{ name: 'entrypoint', datatype: 'S', value: 'Go' }]);
  t.equal(requestFee({ transfers: [], ringSize: 2, scRpc }), defaultFee(1, 2, encodeRpcArguments(scRpc).length));
});

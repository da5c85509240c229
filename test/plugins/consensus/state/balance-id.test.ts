/** A balance's map key: short for the native coin, and never the same for two different (asset, account) pairs. */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { balanceId } from '../../../../plugins/consensus/state/balance-id.js';

const NATIVE = new Uint8Array(32);

t.test('the native coin is keyed by the account alone', async (t) => {
  const key = new Uint8Array(randomBytes(33));
  t.equal(balanceId(NATIVE, key), Buffer.from(key).toString('latin1'));
  t.equal(balanceId(NATIVE, key), balanceId(new Uint8Array(32), key.slice()), 'by content, not by object');
});

t.test('a token is keyed apart from the native coin, even by an account spelling out its bytes', async (t) => {
  const asset = new Uint8Array(randomBytes(32));
  const key = new Uint8Array(randomBytes(33));
  const spelled = new Uint8Array([...asset, ...key]);
  t.not(balanceId(asset, key), balanceId(NATIVE, spelled));
  t.not(balanceId(asset, key), balanceId(NATIVE, key));
  const almostNative = new Uint8Array(32);
  almostNative[31] = 1;
  t.not(balanceId(almostNative, key), balanceId(NATIVE, key), 'one bit from the native id is a token');
  t.equal(balanceId(asset, key), balanceId(asset.slice(), key.slice()));
});

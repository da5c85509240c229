/** Integrated addresses carry `U` arguments as uint64s: values beyond 2^53 go in and come back with every digit. */
import t from 'tap';
import WebSocket from 'ws';
import { loadCore } from '../../../../core-native/ts/index.js';
import { curvePointCheck, splitAddress } from '../../../../protocol/address.js';
import { premineSecret } from '../../../../protocol/premine.js';
import { postRpc } from '../../../helpers/app.js';
import { startWalletApp, testWallet } from '../../../helpers/wallet-app.js';

const core = await loadCore();
const MAX_U64 = '18446744073709551615';
const JUST_ABOVE_2_53 = '9007199254740993';
const PAYLOAD = `[{"name":"V","datatype":"U","value":${MAX_U64}},{"name":"W","datatype":"U","value":${JUST_ABOVE_2_53}}]`;

t.test(
  'a uint64 beyond 2^53 round-trips exactly through MakeIntegratedAddress and SplitIntegratedAddress',
  async (t) => {
    // The address methods are local: the wallet's daemon need not be reachable.
    const url = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), '127.0.0.1:9'));
    const made = await postRpc(
      url,
      `{"jsonrpc":"2.0","id":1,"method":"MakeIntegratedAddress","params":{"payload_rpc":${PAYLOAD}}}`,
    );
    const integrated = /"integrated_address":"([a-z0-9]+)"/.exec(made.text)![1]!;
    t.equal(
      made.text,
      `{"jsonrpc":"2.0","id":1,"result":{"integrated_address":"${integrated}","payload_rpc":${PAYLOAD}}}`,
      'the answer writes the arguments exactly',
    );
    t.same(
      splitAddress(integrated, undefined, curvePointCheck(core)).args.map((arg) => arg.value),
      [BigInt(MAX_U64), BigInt(JUST_ABOVE_2_53)],
      'the address carries the exact values',
    );

    const split = await postRpc(
      url,
      `{"jsonrpc":"2.0","id":2,"method":"SplitIntegratedAddress","params":{"integrated_address":"${integrated}"}}`,
    );
    t.match(split.text, `"payload_rpc":${PAYLOAD}}}`, 'and SplitIntegratedAddress gives them back exactly');

    const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
    t.teardown(() => ws.close());
    await new Promise((resolve) => ws.once('open', resolve));
    const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    ws.send(
      `{"jsonrpc":"2.0","id":3,"method":"SplitIntegratedAddress","params":{"integrated_address":"${integrated}"}}`,
    );
    t.match(await answer, `"payload_rpc":${PAYLOAD}}}`, 'over WebSocket too');
  },
);

/**
 * `POST /install_sc` on the wallet's HTTP server: the body is a contract's source; the wallet sends its install (ring 2,
 * so that the installer is the contract's SIGNER() in Initialize) and answers `{"txid": "<SCID>"}` (an install's txid
 * is the new SCID). The install is first tried on the daemon and refused when its Initialize would fail, unless the URL
 * says `?force=true`. Unlike the reference, a failure is a 4xx status with JSON `{"error": "<message>"}`.
 */
import type { HttpRoute, HttpRouteResponse } from '../../host/rpc/endpoint.js';
import { installArgs } from '../../wallet/contract-args.js';
import { ContractWouldFailError, contractWouldFailMessage } from '../../wallet/contract-trial.js';
import { WalletError } from '../../wallet/wallet-error.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import { newlinesWereStripped, STRIPPED_NEWLINES_MESSAGE } from './stripped-newlines.js';

export const INSTALL_SC_PATH = '/install_sc';

const json = (status: number, value: unknown): HttpRouteResponse => ({
  status,
  body: `${JSON.stringify(value)}\n`,
  contentType: 'application/json',
});

export function installRoute(wallet: WalletService): HttpRoute {
  return async ({ method, query, body }) => {
    if (method !== 'POST') return json(405, { error: `POST the contract source to ${INSTALL_SC_PATH}` });
    const force = query.get('force');
    if (force !== null && force !== 'true' && force !== 'false')
      return json(400, { error: `force must be true or false, got ${JSON.stringify(force)}` });
    const code = body.toString('utf8');
    if (code.trim() === '') return json(400, { error: 'the request body must be the contract source' });
    if (newlinesWereStripped(code)) return json(400, { error: STRIPPED_NEWLINES_MESSAGE });
    try {
      const request = { transfers: [], ringSize: 2, scRpc: installArgs(code), force: force === 'true' };
      return json(200, { txid: await wallet.transfers.send(request) });
    } catch (error) {
      if (error instanceof ContractWouldFailError)
        return json(400, { error: contractWouldFailMessage(error.failure, error.install, 'add ?force=true') });
      if (error instanceof WalletError) return json(400, { error: error.message });
      throw error;
    }
  };
}

/**
 * The web wallet's JSON API, one handler per `METHOD /api/…`: what the page reads (GET) and what it asks the wallet to
 * do (POST, same-origin with the session token: server.ts checks that before a handler runs). Each handler works on
 * the wallet library; a refusal the wallet words (an UmbraError) becomes a 400 with its message.
 */
import { encodeIntegratedAddress } from '../../protocol/address.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { WalletFileErrorCode } from '../../wallet/wallet-file.js';
import type { Core } from '../../core-native/ts/core.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { Approvals, ContractCallRequest, DestinationCheck, Settings } from './api-types.js';
import type { AssetNames } from './asset-names.js';
import { callRequest, contractInfo, installRequest, trial } from './contract-requests.js';
import type { DappApprovals } from './dapp/approvals.js';
import { changeDaemons, daemonChange } from './daemon-change.js';
import type { IdleLock } from './idle-lock.js';
import { keepSettings } from './kept-settings.js';
import { checkProof } from './proof-check.js';
import type { WebWalletSettings } from './settings.js';
import type { SendForm, TransactionJobs } from './transaction-jobs.js';
import { balances, historyRows, overview } from './wallet-views.js';
import { textField, WebWalletError, WebWalletErrorCode, isScid } from './web-wallet-error.js';

export type Body = Record<string, unknown>;

export interface ApiHandler {
  /** Whether the handler answers while the page is locked. */
  whileLocked?: boolean;
  /** The answer's JSON value; nothing answers `{}`. */
  run(body: Body): Promise<unknown>;
}

export interface ApiParts {
  core: Core;
  wallet: WalletService;
  names: AssetNames;
  settings: WebWalletSettings;
  lock: IdleLock;
  jobs: TransactionJobs;
  /** The ring a transfer uses unless the page asks for another. */
  ring: { size: number };
  /** Whether a sync has reached the daemon's top since the server started. */
  caughtUp(): boolean;
  /** Tells the page the wallet's state changed (its balances, names or daemon). */
  changed(): void;
}

export const RING_SIZES = [2, 4, 8, 16, 32, 64, 128];

function ringField(body: Body, fallback: number): number {
  const ring = body['ring'] ?? fallback;
  if (typeof ring !== 'number' || !RING_SIZES.includes(ring))
    throw new WebWalletError(WebWalletErrorCode.BadRequest, `the ring size must be one of ${RING_SIZES.join(', ')}`);
  return ring;
}

function callForm(body: Body): ContractCallRequest {
  const args = body['args'];
  if (typeof args !== 'object' || args === null || Object.values(args).some((v) => typeof v !== 'string'))
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'args must map parameter names to text');
  return {
    scid: textField(body, 'scid', 'the SCID'),
    entrypoint: textField(body, 'entrypoint', 'the entry point'),
    args: args as Record<string, string>,
    deposit: typeof body['deposit'] === 'string' ? body['deposit'] : '',
  };
}

function integratedArgs(body: Body): RpcArgument[] {
  const args = body['args'];
  if (!Array.isArray(args) || args.length === 0)
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'give at least one argument');
  return args.map((arg: Body) => {
    const name = textField(arg, 'name', 'an argument name');
    const value = textField(arg, 'value', `the value of ${name}`);
    if (arg['type'] === 'String') return { name, datatype: 'S', value };
    if (!/^[0-9]+$/.test(value))
      throw new WebWalletError(WebWalletErrorCode.BadRequest, `${name} is a Uint64: give a whole number`);
    return { name, datatype: 'U', value: BigInt(value) };
  });
}

function settingsOf({ wallet, ring, lock }: ApiParts): Settings {
  return {
    daemon: wallet.daemon.url,
    sendDaemon: wallet.hasSendDaemon ? wallet.sendDaemon.url : null,
    ring: ring.size,
    lockMinutes: lock.lockMinutes,
    kept: wallet.file !== undefined,
  };
}

async function saveSettings(parts: ApiParts, body: Body): Promise<Settings> {
  const { lock } = parts;
  const ring = ringField(body, parts.ring.size);
  const minutes = body['lockMinutes'] ?? lock.lockMinutes;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 1440)
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'the lock timeout is 1 to 1440 minutes');
  parts.ring.size = ring;
  lock.lockMinutes = minutes;
  keepSettings(parts.wallet.file, { ring });
  return settingsOf(parts);
}

function approvalsOf(parts: ApiParts): Approvals {
  const { approvals } = parts.settings;
  return {
    available: approvals !== undefined,
    pending: approvals?.pending() ?? [],
    permissions: approvals?.permissions() ?? [],
  };
}

function dappApprovals(parts: ApiParts): DappApprovals {
  const { approvals } = parts.settings;
  if (!approvals) throw new WebWalletError(WebWalletErrorCode.BadRequest, 'no web apps connect to this wallet');
  return approvals;
}

async function unlock(parts: ApiParts, body: Body): Promise<{ locked: false }> {
  try {
    await parts.settings.checkPassword(textField(body, 'password', 'the password'));
  } catch (error) {
    if (UmbraError.is(error, WalletFileErrorCode.BadPassword))
      throw new WebWalletError(WebWalletErrorCode.WrongPassword, 'wrong password');
    throw error;
  }
  parts.lock.unlock();
  return { locked: false };
}

export function apiRoutes(parts: ApiParts): Map<string, ApiHandler> {
  const { wallet, lock, jobs, names } = parts;
  const compile = parts.settings.compileContract;
  const routes: [string, ApiHandler][] = [
    [
      'GET /api/state',
      { whileLocked: true, run: async () => ({ locked: lock.isLocked, lockMinutes: lock.lockMinutes }) },
    ],
    ['POST /api/unlock', { whileLocked: true, run: (body) => unlock(parts, body) }],
    ['POST /api/lock', { whileLocked: true, run: async () => lock.lock() }],
    ['POST /api/touch', { run: async () => lock.touch() }],
    ['GET /api/overview', { run: () => overview(wallet, names, parts.caughtUp()) }],
    ['GET /api/assets', { run: () => balances(wallet, names) }],
    [
      'POST /api/assets/token',
      {
        run: async (body) => {
          const scid = textField(body, 'scid', "the token's SCID").trim();
          names.label(scid, typeof body['label'] === 'string' ? body['label'] : '');
          // A token received in a ring the wallet does not read (private mode) is found once followed.
          wallet.historySync.follow(scid);
          wallet.persist();
          parts.changed();
          return names.nameOf(scid);
        },
      },
    ],
    ['GET /api/history', { run: () => historyRows(wallet, names) }],
    ['GET /api/jobs', { run: async () => jobs.list() }],
    [
      'POST /api/destination',
      {
        run: async (body): Promise<DestinationCheck> => {
          const resolved = await wallet.resolve(textField(body, 'destination', 'the destination').trim());
          const args = resolved.args.map((arg) => `${arg.name} (${arg.datatype}) = ${String(arg.value)}`);
          return { address: resolved.address, args };
        },
      },
    ],
    [
      'POST /api/integrated',
      {
        run: async (body) => ({
          address: encodeIntegratedAddress(wallet.keys.network, wallet.keys.publicKey, integratedArgs(body)),
        }),
      },
    ],
    ['POST /api/send/preview', { run: async (body) => (await jobs.previewSend(sendForm(body, parts))).preview }],
    [
      'POST /api/send',
      {
        run: async (body) => {
          const { preview, request } = await jobs.previewSend(sendForm(body, parts));
          return jobs.start(`send ${preview.text} to ${preview.address} (ring ${preview.ring})`, request);
        },
      },
    ],
    [
      'POST /api/contract',
      { run: (body) => contractInfo(wallet, compile, textField(body, 'scid', 'the SCID').trim()) },
    ],
    [
      'POST /api/contract/trial',
      { run: async (body) => trial(wallet, await callRequest(wallet, compile, callForm(body))) },
    ],
    [
      'POST /api/contract/call',
      {
        run: async (body) => {
          const form = callForm(body);
          return jobs.start(`call ${form.entrypoint} of ${form.scid}`, await callRequest(wallet, compile, form));
        },
      },
    ],
    [
      'POST /api/contract/install',
      { run: (body) => jobs.start('install a contract', installRequest(textField(body, 'code'))) },
    ],
    [
      'POST /api/proof',
      { run: (body) => checkProof(parts.core, wallet, textField(body, 'txid').trim(), textField(body, 'proof')) },
    ],
    ['GET /api/settings', { run: async () => settingsOf(parts) }],
    ['POST /api/settings', { run: (body) => saveSettings(parts, body) }],
    [
      'POST /api/settings/daemon',
      {
        run: async (body) => {
          await changeDaemons(wallet, daemonChange(body));
          parts.changed();
          return settingsOf(parts);
        },
      },
    ],
    ['GET /api/approvals', { run: async () => approvalsOf(parts) }],
    ['POST /api/approvals/approve', { run: async (body) => dappApprovals(parts).approve(textField(body, 'id')) }],
    ['POST /api/approvals/deny', { run: async (body) => dappApprovals(parts).deny(textField(body, 'id')) }],
    ['POST /api/approvals/revoke', { run: async (body) => dappApprovals(parts).revoke(textField(body, 'origin')) }],
  ];
  return new Map(routes);
}

function sendForm(body: Body, parts: ApiParts): SendForm {
  const scid = body['scid'] ?? NATIVE_ASSET;
  if (typeof scid !== 'string' || !isScid(scid))
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'the asset is a SCID: 64 lowercase hex digits');
  return {
    destination: textField(body, 'destination', 'the destination').trim(),
    scid,
    amount: textField(body, 'amount', 'the amount'),
    ring: ringField(body, parts.ring.size),
  };
}

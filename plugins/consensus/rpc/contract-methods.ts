/**
 * Contract queries of the daemon: NODE.GetSC (code, variables, balances at any topoheight), NODE.NameToAddress (the
 * name service, at any topoheight) and NODE.GetGasEstimate (gas-estimate-method.ts). docs/rpc.md § NODE.GetSC,
 * § NODE.NameToAddress.
 */
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { utf8ByteString, type DvmValue } from '../../../protocol/contract-values.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { AccountsReader } from '../accounts.js';
import type { Chain } from '../chain.js';
import type { ContractsReader } from '../state-contracts.js';
import { gasEstimateMethod, type GasEstimateDeps } from './gas-estimate-method.js';

export interface ContractRpcDeps extends GasEstimateDeps {
  /** A 33-byte key as an address of this network. */
  addressOf(key: Uint8Array): string;
}

const NOT_AVAILABLE = 'NOT AVAILABLE err: key not found';
const jsonUint = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());
/** Uint64 values as numbers, String values as the hex of their bytes (docs/rpc.md § NODE.GetSC). */
const shown = (value: DvmValue): number | string =>
  typeof value === 'bigint' ? jsonUint(value) : Buffer.from(value, 'latin1').toString('hex');
const shownText = (value: DvmValue | undefined): string =>
  value === undefined
    ? NOT_AVAILABLE
    : typeof value === 'bigint'
      ? value.toString()
      : Buffer.from(value, 'latin1').toString('hex');

export function contractMethods(deps: ContractRpcDeps): RpcMethod[] {
  return [getScMethod(deps.chain), nameToAddressMethod(deps), gasEstimateMethod(deps)];
}

/** The state at a topoheight (-1 or absent: the latest). */
function stateAt(chain: Chain, topoheight: number | undefined): AccountsReader {
  const top = chain.top.height;
  if (topoheight === undefined || topoheight === -1) return chain.stateAt();
  if (topoheight < 0 || BigInt(topoheight) > top)
    throw new QueryError(
      QueryErrorCode.TopoheightOffChain,
      `topoheight ${topoheight} is not on the chain (0 … ${top}, or -1 for the latest)`,
    );
  return chain.stateAt(chain.heldMetaAtTopo(BigInt(topoheight)));
}

function getScMethod(chain: Chain): RpcMethod {
  return defineMethod({
    name: 'NODE.GetSC',
    aliases: ['getsc'],
    params: objectParams(
      p.object({
        scid: p.hash(),
        code: p.optional(p.bool(), true),
        variables: p.optional(p.bool(), false),
        keysstring: p.optional(p.array(p.string()), []),
        keysuint64: p.optional(p.array(p.uint()), []),
        topoheight: p.optional(p.int(), undefined),
      }),
    ),
    handler: (params) => {
      const scid = fromHex(params.scid, 32);
      const contracts = stateAt(chain, params.topoheight).contracts;
      if (!contracts.exists(scid))
        throw new QueryError(QueryErrorCode.UnknownContract, `no contract ${params.scid} at this topoheight`);
      const balances: Record<string, number | string> = {};
      for (const [asset, amount] of contracts.balances(scid)) balances[toHex(asset)] = jsonUint(amount);
      return {
        valuesuint64: params.keysuint64.map((key) => shownText(contracts.variable(scid, BigInt(key)))),
        valuesstring: params.keysstring.map((key) => shownText(contracts.variable(scid, utf8ByteString(key)))),
        valuesbytes: [],
        balances,
        balance: jsonUint(contracts.balance(scid, new Uint8Array(32))),
        code: params.code ? (contracts.code(scid) ?? '') : '',
        ...(params.variables ? variablesOf(contracts, scid) : { stringkeys: {}, uint64keys: {} }),
        status: 'OK',
      };
    },
  });
}

/** Every variable of a contract: String keys as UTF-8 text, Uint64 keys in decimal. */
function variablesOf(
  contracts: ContractsReader,
  scid: Uint8Array,
): { stringkeys: Record<string, number | string>; uint64keys: Record<string, number | string> } {
  const stringkeys: Record<string, number | string> = {};
  const uint64keys: Record<string, number | string> = {};
  for (const [key, value] of contracts.variables(scid)) {
    if (typeof key === 'bigint') uint64keys[key.toString()] = shown(value);
    else stringkeys[Buffer.from(key, 'latin1').toString('utf8')] = shown(value);
  }
  return { stringkeys, uint64keys };
}

function nameToAddressMethod(deps: ContractRpcDeps): RpcMethod {
  return defineMethod({
    name: 'NODE.NameToAddress',
    aliases: ['nametoaddress'],
    params: objectParams(p.object({ name: p.string(), topoheight: p.optional(p.int(), undefined) })),
    handler: ({ name, topoheight }) => {
      const owner = stateAt(deps.chain, topoheight).contracts.variable(NAME_SERVICE_SCID, utf8ByteString(name));
      if (typeof owner !== 'string' || owner.length !== 33)
        throw new QueryError(QueryErrorCode.NameNotRegistered, `name ${JSON.stringify(name)} is not registered`);
      return { name, address: deps.addressOf(Buffer.from(owner, 'latin1')), status: 'OK' };
    },
  });
}

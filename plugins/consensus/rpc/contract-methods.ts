/**
 * Contract queries of the daemon: NODE.GetSC (code, variables, balances at any topoheight), NODE.NameToAddress (the
 * name service, at any topoheight) and NODE.GetGasEstimate (an install or call run on a scratch view of the latest
 * state, nothing kept). docs/rpc.md § NODE.GetSC, § NODE.GetGasEstimate.
 */
import { randomBytes } from 'node:crypto';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { utf8ByteString } from '../../../protocol/contract-values.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { encodeRpcArguments, type RpcArgument } from '../../../protocol/rpc-arguments.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import type { RpcMethod } from '../../../host/rpc/registry.js';
import {
  ContractCompileError,
  type CallResult,
  type ContractStorage,
  type ContractVm,
} from '../../../host/services/contract-vm.js';
import type { DvmValue } from '../../../protocol/contract-values.js';
import type { AccountsReader } from '../accounts.js';
import type { Chain } from '../chain.js';
import { describeFailure, unpayablePayment } from '../execute-contract.js';
import { sumDeposits } from '../../../protocol/contract-deposits.js';

export interface ContractRpcDeps {
  chain: Chain;
  /** The contract VM, when the dvm plugin is loaded. */
  contractVm: ContractVm | undefined;
  /** A 33-byte key as an address of this network. */
  addressOf(key: Uint8Array): string;
  /** An address of this network as its 33-byte key; throws with a message naming the problem. */
  keyOf(address: string): Uint8Array;
}

const ZERO = '\0'.repeat(32);
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

const transferItem = p.object({
  destination: p.optional(p.string(), undefined),
  amount: p.optional(p.uint(), 0),
  scid: p.optional(p.hash(), undefined),
  burn: p.optional(p.uint64(), 0n),
});

export function contractMethods(deps: ContractRpcDeps): RpcMethod<any, unknown>[] {
  /** The state at a topoheight (-1 or absent: the latest). */
  const stateAt = (chain: Chain, topoheight: number | undefined): { state: AccountsReader; topoheight: bigint } => {
    const top = chain.top.height;
    if (topoheight === undefined || topoheight === -1) return { state: chain.stateAt(), topoheight: top };
    if (topoheight < 0 || BigInt(topoheight) > top)
      throw new QueryError(
        QueryErrorCode.TopoheightOffChain,
        `topoheight ${topoheight} is not on the chain (0 … ${top}, or -1 for the latest)`,
      );
    return { state: chain.stateAt(chain.heldMetaAtTopo(BigInt(topoheight))), topoheight: BigInt(topoheight) };
  };

  const vm = (): ContractVm => {
    const found = deps.contractVm;
    if (!found)
      throw new QueryError(QueryErrorCode.NoContractVm, 'this node runs without the contract VM (add the dvm plugin)');
    return found;
  };

  return [
    {
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
      handler: (params: {
        scid: string;
        code: boolean;
        variables: boolean;
        keysstring: string[];
        keysuint64: number[];
        topoheight: number | undefined;
      }) => {
        const { state } = stateAt(deps.chain, params.topoheight);
        const scid = fromHex(params.scid, 32);
        const contracts = state.contracts;
        if (!contracts.exists(scid))
          throw new QueryError(QueryErrorCode.UnknownContract, `no contract ${params.scid} at this topoheight`);
        const stringkeys: Record<string, number | string> = {};
        const uint64keys: Record<string, number | string> = {};
        if (params.variables) {
          for (const [key, value] of contracts.variables(scid)) {
            if (typeof key === 'bigint') uint64keys[key.toString()] = shown(value);
            else stringkeys[Buffer.from(key, 'latin1').toString('utf8')] = shown(value);
          }
        }
        const balances: Record<string, number | string> = {};
        for (const [asset, amount] of contracts.balances(scid)) balances[toHex(asset)] = jsonUint(amount);
        return {
          valuesuint64: params.keysuint64.map((key) => shownText(contracts.variable(scid, BigInt(key)))),
          valuesstring: params.keysstring.map((key) => shownText(contracts.variable(scid, utf8ByteString(key)))),
          valuesbytes: [],
          balances,
          balance: jsonUint(contracts.balance(scid, new Uint8Array(32))),
          code: params.code ? (contracts.code(scid) ?? '') : '',
          stringkeys,
          uint64keys,
          status: 'OK',
        };
      },
    },
    {
      name: 'NODE.NameToAddress',
      aliases: ['nametoaddress'],
      params: objectParams(p.object({ name: p.string(), topoheight: p.optional(p.int(), undefined) })),
      handler: ({ name, topoheight }: { name: string; topoheight: number | undefined }) => {
        const { state } = stateAt(deps.chain, topoheight);
        const owner = state.contracts.variable(NAME_SERVICE_SCID, utf8ByteString(name));
        if (typeof owner !== 'string' || owner.length !== 33)
          throw new QueryError(QueryErrorCode.NameNotRegistered, `name ${JSON.stringify(name)} is not registered`);
        return { name, address: deps.addressOf(Buffer.from(owner, 'latin1')), status: 'OK' };
      },
    },
    {
      name: 'NODE.GetGasEstimate',
      aliases: ['getgasestimate'],
      params: objectParams(
        p.object({
          transfers: p.optional(p.array(transferItem), []),
          sc: p.optional(p.string(), undefined),
          sc_rpc: p.optional(p.rpcArguments(), []),
          signer: p.optional(p.string(), undefined),
        }),
      ),
      handler: (params: {
        transfers: { scid?: string; burn: bigint }[];
        sc: string | undefined;
        sc_rpc: RpcArgument[];
        signer: string | undefined;
      }) => {
        const chain = deps.chain;
        const contractVm = vm();
        let signer: string | undefined;
        if (params.signer !== undefined && params.signer !== '') {
          try {
            signer = Buffer.from(deps.keyOf(params.signer)).toString('latin1');
          } catch (error) {
            throw new InvalidParamsError(`invalid params: 'signer': ${(error as Error).message}`);
          }
        }
        const deposits = sumDeposits(
          params.transfers.map((item) => [
            item.scid ? Buffer.from(item.scid, 'hex').toString('latin1') : ZERO,
            item.burn,
          ]),
        );
        const top = chain.top;
        const base = {
          blid: Buffer.from(top.id).toString('latin1'),
          txid: randomBytes(32).toString('latin1'),
          height: top.height + 1n,
          timestampMs: BigInt(Date.now()),
          signer,
          deposits,
          fee: 0n,
        };
        let result: CallResult;
        if (params.sc !== undefined) {
          // A code that does not mention an initializer may be base64 (as the reference's wallets send it).
          let code = params.sc;
          if (!/initialize/i.test(code) && /^[A-Za-z0-9+/=\s]+$/.test(code))
            code = Buffer.from(code, 'base64').toString('utf8');
          let contract;
          try {
            contract = contractVm.compile(code);
          } catch (error) {
            if (!(error instanceof ContractCompileError)) throw error;
            throw new QueryError(
              QueryErrorCode.ContractDoesNotCompile,
              `the contract does not compile: ${error.message} (source line ${error.sourceLine})`,
              { cause: error },
            );
          }
          if (!contract.initializer)
            throw new QueryError(
              QueryErrorCode.NoInitializer,
              'the contract has no Initialize or InitializePrivate function',
            );
          const args: RpcArgument[] = [
            { name: 'SC_ACTION', datatype: 'U', value: 1n },
            { name: 'SC_CODE', datatype: 'S', value: code },
            ...params.sc_rpc.filter((a) => a.name !== 'SC_ACTION' && a.name !== 'SC_CODE'),
          ];
          const empty: ContractStorage = { load: () => undefined, balance: () => 0n };
          const scid = randomBytes(32).toString('latin1');
          result = contractVm.call({
            contract,
            entrypoint: contract.initializer,
            args,
            storage: empty,
            context: { ...base, scid, argumentsGas: BigInt(encodeRpcArguments(args).length) },
          });
        } else {
          const scidArg = params.sc_rpc.find((a) => a.name === 'SC_ID' && a.datatype === 'H');
          const entry = params.sc_rpc.find((a) => a.name === 'entrypoint' && a.datatype === 'S');
          if (!scidArg || !entry)
            throw new InvalidParamsError(
              "invalid params: 'sc_rpc' must name the contract (SC_ID, datatype H) and the function (entrypoint, datatype S), or give 'sc' to estimate an install",
            );
          const scid = fromHex(scidArg.value as string, 32);
          const state = chain.stateAt();
          const code = state.contracts.code(scid);
          if (code === undefined)
            throw new QueryError(QueryErrorCode.UnknownContract, `no contract ${scidArg.value as string}`);
          const contract = contractVm.compile(code);
          // What the pool refuses without running is not a call that would fail (forcing it would not send it).
          const fn = contract.functions.get(entry.value as string);
          if (!fn)
            throw new QueryError(
              QueryErrorCode.UnknownFunction,
              `contract ${scidArg.value as string} has no function ${entry.value as string}`,
            );
          if (!fn.exported)
            throw new QueryError(
              QueryErrorCode.NotExported,
              `function ${entry.value as string} of contract ${scidArg.value as string} is not exported (its name starts with a lower-case letter)`,
            );
          result = contractVm.call({
            contract,
            entrypoint: entry.value as string,
            args: params.sc_rpc,
            storage: state.contracts.storage(scid),
            context: {
              ...base,
              scid: Buffer.from(scid).toString('latin1'),
              argumentsGas: BigInt(encodeRpcArguments(params.sc_rpc).length),
            },
          });
        }
        // As in a block (execute-contract.ts): a payment to an unregistered key fails a call that returned 0.
        const failure = result.committed ? unpayablePayment(result, chain.stateAt()) : describeFailure(result);
        if (failure)
          throw new QueryError(QueryErrorCode.CallWouldFail, `the call would fail: ${failure}`, {
            details: { failure },
          });
        return { gascompute: Number(result.gas.compute), gasstorage: Number(result.gas.storage), status: 'OK' };
      },
    },
  ];
}

/**
 * `wallet call`'s entry point and arguments checked against the contract's code before anything is tried, shown or
 * sent: the chain ignores an argument no parameter takes, so a misspelt name would otherwise reach the contract as a
 * missing parameter (or not at all). The code comes from the daemon (NODE.GetSC) and is read by the contract VM's
 * compiler; an unknown entry point lists the entry points, an unknown argument names the closest parameter and lists
 * them all, and so does a parameter left without an argument. A contract the daemon cannot give or the compiler
 * cannot read is left to the trial run, which says why.
 */
import { closestName } from '../../host/rpc/closest-name.js';
import type { CompiledContract, FunctionSignature } from '../../host/services/contract-vm.js';
import { entryPointRefusal } from '../../protocol/contract-call-rules.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { DaemonRpcError, type DaemonClient } from '../../wallet/daemon-client.js';
import { CliError, CliErrorCode } from '../cli-error.js';

/** A Uint64 parameter of this name takes the coin deposit, not an argument. */
const DEPOSIT_PARAMETER = 'value';

const takesDeposit = (param: FunctionSignature['params'][number]): boolean =>
  param.type === 'Uint64' && param.name === DEPOSIT_PARAMETER;

/** The contract's code compiled, or undefined when the daemon does not give it or it does not compile. */
async function compiledContract(daemon: DaemonClient, scid: string): Promise<CompiledContract | undefined> {
  let code: string;
  try {
    ({ code } = await daemon.call<{ code: string }>('NODE.GetSC', { scid, code: true }));
  } catch (error) {
    if (error instanceof DaemonRpcError) return undefined;
    throw error;
  }
  // Loaded only by a call: the other wallet commands never need the compiler.
  const { compileContract } = await import('../../plugins/dvm/compiler.js');
  try {
    return compileContract(code);
  } catch {
    return undefined;
  }
}

/** `name (Uint64), other (String)`, the deposit parameter said as such; or that there are none. */
function parameterList(fn: FunctionSignature): string {
  const params = fn.params.map((param) =>
    takesDeposit(param) ? `${param.name} (the coin deposit: --deposit)` : `${param.name} (${param.type})`,
  );
  return params.length > 0 ? `${fn.name}'s parameters: ${params.join(', ')}` : `${fn.name} takes no arguments`;
}

/** The parameters of `fn` that take an argument. */
const argumentNames = (fn: FunctionSignature): string[] =>
  fn.params.filter((param) => !takesDeposit(param)).map((param) => param.name);

/** The parameter of `fn` a misspelt argument was meant for, or else one of another entry point (`name of Entry`). */
function closestArgument(contract: CompiledContract, fn: FunctionSignature, name: string): string | undefined {
  const own = closestName(name, argumentNames(fn));
  if (own) return own;
  for (const other of contract.functions.values()) {
    const elsewhere = other.exported && other !== fn ? closestName(name, argumentNames(other)) : undefined;
    if (elsewhere) return `${elsewhere} of ${other.name}`;
  }
  return undefined;
}

/** Refuses an entry point `scid`'s contract does not export, or arguments that do not fit its parameters. */
export async function checkCallArguments(
  daemon: DaemonClient,
  scid: string,
  entrypoint: string,
  args: readonly RpcArgument[],
): Promise<void> {
  const contract = await compiledContract(daemon, scid);
  if (!contract) return;
  const fn = contract.functions.get(entrypoint);
  if (fn && !fn.exported)
    throw new CliError(CliErrorCode.BadArgument, entryPointRefusal(contract.functions, entrypoint, '')!.message);
  if (!fn) {
    const exported = [...contract.functions.values()].filter((f) => f.exported).map((f) => f.name);
    const suggestion = closestName(entrypoint, exported);
    throw new CliError(
      CliErrorCode.BadArgument,
      `contract ${scid} has no entry point ${entrypoint}${suggestion ? ` (did you mean ${suggestion}?)` : ''}; its entry points: ${exported.join(', ') || 'none'}`,
    );
  }
  const named = argumentNames(fn);
  for (const { name } of args) {
    if (named.includes(name)) continue;
    const suggestion = closestArgument(contract, fn, name);
    throw new CliError(
      CliErrorCode.BadArgument,
      `unknown argument ${name}${suggestion ? ` (did you mean ${suggestion}?)` : ''}: ${parameterList(fn)}`,
    );
  }
  const missing = named.filter((name) => !args.some((arg) => arg.name === name));
  if (missing.length > 0)
    throw new CliError(
      CliErrorCode.BadArgument,
      `${entrypoint} needs ${missing.length === 1 ? 'an argument' : 'arguments'} ${missing.join(', ')}: ${parameterList(fn)}`,
    );
}

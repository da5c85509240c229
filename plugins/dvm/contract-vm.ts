/**
 * The ContractVm service: compile once, call many times. A call binds the entry point's parameters from the
 * transaction's SC arguments (docs/contracts.md § Functions and entry points), runs it, and applies the one rule that decides everything:
 * only an entry point that returns Uint64 0 without error commits its writes and transfers; anything else — a
 * nonzero or String result, a panic, an exhausted limit — discards them all.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import type { Core } from '../../core-native/ts/core.js';
import type { AddressCodec } from '../../protocol/address.js';
import { entryPointRefusal } from '../../protocol/contract-call-rules.js';
import { utf8ByteString } from '../../protocol/contract-values.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import type {
  CallRequest,
  CallResult,
  CompiledContract,
  ContractFailure,
  ContractVm,
} from '../../host/services/contract-vm.js';
import { ContractErrorCode } from '../../host/services/contract-vm.js';
import type { DvmValue } from '../../protocol/contract-values.js';
import { compileContract, type CompiledFunction, type CompiledProgram } from './compiler.js';
import { ContractPanic, ExecutionState, type VmEnvironment } from './execution-state.js';

const ZERO_ASSET = '\0'.repeat(32);
/** Compiled programs kept for reuse, by source (installs and UPDATE_SC_CODE checks compile the same code often). */
const CACHE_SIZE = 256;

class BindingError extends UmbraError<ContractErrorCode> {
  constructor(message: string) {
    super(ContractErrorCode.BadArguments, message);
  }
}

/** The value each parameter takes from the transaction (the `value` Uint64 parameter is the coin deposit). */
function bindArguments(fn: CompiledFunction, args: readonly RpcArgument[], coinDeposit: bigint): DvmValue[] {
  return fn.params.map((param) => {
    if (param.type === 'Uint64') {
      if (param.name === 'value') return coinDeposit;
      const arg = args.find((a) => a.name === param.name && a.datatype === 'U');
      if (!arg)
        throw new BindingError(
          `${fn.name}: parameter ${param.name} (Uint64) needs an argument ${param.name} of datatype U`,
        );
      return arg.value as bigint;
    }
    const text = args.find((a) => a.name === param.name && a.datatype === 'S');
    if (text) return utf8ByteString(text.value as string);
    const hash = args.find((a) => a.name === param.name && a.datatype === 'H');
    if (hash) return Buffer.from(hash.value as string, 'hex').toString('latin1');
    throw new BindingError(
      `${fn.name}: parameter ${param.name} (String) needs an argument ${param.name} of datatype S or H`,
    );
  });
}

export class DvmContractVm implements ContractVm {
  private readonly cache = new Map<string, CompiledProgram>();
  private readonly env: VmEnvironment;

  constructor(core: Core, addresses: AddressCodec) {
    this.env = { core, addresses, compile: (source) => this.compile(source) };
  }

  compile(source: string): CompiledContract {
    const cached = this.cache.get(source);
    if (cached) return cached;
    const program = compileContract(source);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(source, program);
    return program;
  }

  call(request: CallRequest): CallResult {
    const { context } = request;
    const program = request.contract as CompiledProgram;
    let state: ExecutionState | undefined;
    const failed = (error: ContractFailure): CallResult => ({
      ok: false,
      committed: false,
      value: undefined,
      error,
      gas: { compute: BigInt(state?.compute ?? 0), storage: BigInt(state?.storage ?? 0) },
      writes: [],
      transfers: [],
      code: undefined,
    });
    const refusal = entryPointRefusal(program.functions, request.entrypoint, 'the contract');
    if (refusal) return failed({ message: refusal.message });
    const fn = program.runtime.get(request.entrypoint)!;
    try {
      const args = bindArguments(fn, request.args, context.deposits.get(ZERO_ASSET) ?? 0n);
      state = new ExecutionState(context, request.storage, this.env);
      const value = fn.invoke(args, state);
      const committed = value === 0n;
      return {
        ok: true,
        committed,
        value,
        error: undefined,
        gas: { compute: BigInt(state.compute), storage: BigInt(state.storage) },
        writes: committed ? state.writes() : [],
        transfers: committed ? state.transfers() : [],
        code:
          committed && state.newCode !== undefined ? Buffer.from(state.newCode, 'latin1').toString('utf8') : undefined,
      };
    } catch (error) {
      if (error instanceof ContractPanic)
        return failed({ message: error.message, function: error.function, line: error.line });
      if (error instanceof BindingError) return failed({ message: error.message });
      if (error instanceof RangeError)
        return failed({ message: `the call exhausted the interpreter: ${error.message}` });
      throw error;
    }
  }
}

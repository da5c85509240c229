/**
 * Everything one call shares across its frames (docs/contracts.md § Gas and limits): counters and gas, the storage overlay
 * (read-your-writes), the session memory of MAP*, queued transfers, the random generator, and the chain context.
 * Failures are `ContractPanic`s; the interpreter adds the function and line where they happened.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import type { Core } from '../../core-native/ts/core.js';
import { storedSize } from '../../protocol/contract-values.js';
import type { AddressCodec } from '../../protocol/address.js';
import type {
  CallContext,
  CompiledContract,
  ContractStorage,
  ContractTransfer,
  StorageWrite,
} from '../../host/services/contract-vm.js';
import type { DvmValue } from '../../protocol/contract-values.js';
import { ContractErrorCode } from '../../host/services/contract-vm.js';
import { MAX_CALL_DEPTH, MAX_COMPUTE_GAS, MAX_EVALUATIONS, MAX_LINES, MAX_STORAGE_GAS } from './limits.js';
import { ContractRandom } from './random.js';

/** A failure while a contract runs; the interpreter fills in the function and line. */
export class ContractPanic extends UmbraError<ContractErrorCode> {
  override readonly name = 'ContractPanic';
  function: string | undefined;
  line: bigint | undefined;
  constructor(message: string) {
    super(ContractErrorCode.Panic, message);
  }
}

/** What built-ins need beyond the call itself. */
export interface VmEnvironment {
  readonly core: Core;
  readonly addresses: AddressCodec;
  /** Compiles code (UPDATE_SC_CODE refuses code that does not compile). */
  compile(source: string): CompiledContract;
}

type Overlay = { key: DvmValue; value: DvmValue | undefined };

/** A typed map key: Uint64 1 and String "1" are different keys. */
const keyOf = (key: DvmValue): string => (typeof key === 'bigint' ? `U${key}` : `S${key}`);
const ZERO_ASSET = '\0'.repeat(32);

export class ExecutionState {
  lines = 0;
  evaluations = 0;
  compute = 0;
  storage = 0;
  depth = 0;
  readonly storageLimit: number;
  private readonly overlay = new Map<string, Overlay>();
  private readonly memory = new Map<string, DvmValue>();
  private readonly queued: ContractTransfer[] = [];
  private readonly spent = new Map<string, bigint>();
  private randomSource: ContractRandom | undefined;
  /** Set by UPDATE_SC_CODE. */
  newCode: string | undefined;

  constructor(
    readonly context: CallContext,
    private readonly committed: ContractStorage,
    readonly env: VmEnvironment,
  ) {
    this.storageLimit =
      context.fee === 0n
        ? Infinity
        : Number(context.fee < BigInt(MAX_STORAGE_GAS) ? context.fee : BigInt(MAX_STORAGE_GAS));
    this.chargeStorage(Number(context.argumentsGas));
  }

  /** Counts a fetched non-empty line with its precomputed compute gas and evaluation count. */
  chargeLine(gas: number, evaluations: number): void {
    if (++this.lines > MAX_LINES) throw new ContractPanic(`more than ${MAX_LINES} lines interpreted`);
    this.compute += gas;
    if (this.compute > MAX_COMPUTE_GAS) throw new ContractPanic(`out of compute gas (limit ${MAX_COMPUTE_GAS})`);
    this.evaluations += evaluations;
    if (this.evaluations > MAX_EVALUATIONS)
      throw new ContractPanic(`more than ${MAX_EVALUATIONS} expression evaluations`);
  }

  chargeStorage(gas: number): void {
    this.storage += gas;
    if (this.storage > this.storageLimit)
      throw new ContractPanic(
        `out of storage gas (limit ${this.storageLimit}, the transaction fee up to ${MAX_STORAGE_GAS})`,
      );
  }

  enter(): void {
    if (++this.depth > MAX_CALL_DEPTH) throw new ContractPanic(`function calls nested deeper than ${MAX_CALL_DEPTH}`);
  }

  leave(): void {
    this.depth--;
  }

  // ---- storage (docs/contracts.md § Gas and limits) ----

  private read(key: DvmValue): DvmValue | undefined {
    const pending = this.overlay.get(keyOf(key));
    const value = pending ? pending.value : this.committed.load(key);
    if (value === undefined) {
      this.chargeStorage(1);
      return undefined;
    }
    const size = storedSize(value);
    this.chargeStorage(size > 10 ? Math.floor(size / 10) : 1);
    return value;
  }

  load(key: DvmValue): DvmValue {
    const value = this.read(key);
    if (value === undefined) throw new ContractPanic(`LOAD: no stored value under ${describeKey(key)}`);
    return value;
  }

  exists(key: DvmValue): boolean {
    return this.read(key) !== undefined;
  }

  store(key: DvmValue, value: DvmValue | undefined): void {
    if (value !== undefined) this.chargeStorage(storedSize(value));
    this.overlay.set(keyOf(key), { key, value });
  }

  /** New code for the contract (a byte string), charged like storing it. */
  setCode(code: string): void {
    this.chargeStorage(storedSize(code));
    this.newCode = code;
  }

  writes(): StorageWrite[] {
    return [...this.overlay.values()].map(({ key, value }) => ({ key, value }));
  }

  // ---- session memory (MAP*) ----

  mapGet(key: DvmValue): DvmValue | undefined {
    return this.memory.get(keyOf(key));
  }

  mapSet(key: DvmValue, value: DvmValue | undefined): void {
    if (value === undefined) this.memory.delete(keyOf(key));
    else this.memory.set(keyOf(key), value);
  }

  // ---- deposits and transfers (docs/contracts.md § When a call commits) ----

  deposit(asset: string): bigint {
    return this.context.deposits.get(asset) ?? 0n;
  }

  /**
   * Queues a payment, refusing it when the contract cannot cover it: its committed balance plus this call's
   * deposits minus what the call already sent. Its own token (asset = SCID) it may mint without limit.
   */
  send(to: string, amount: bigint, asset: string, builtin: string): void {
    if (asset !== this.context.scid) {
      const spent = (this.spent.get(asset) ?? 0n) + amount;
      const available = this.committed.balance(asset) + this.deposit(asset);
      if (spent > available) {
        const what = asset === ZERO_ASSET ? 'coin' : `asset ${Buffer.from(asset, 'latin1').toString('hex')}`;
        throw new ContractPanic(
          `${builtin}: insufficient ${what} balance (has ${available - (spent - amount)}, sending ${amount})`,
        );
      }
      this.spent.set(asset, spent);
    }
    this.queued.push({ asset, to, amount });
  }

  transfers(): ContractTransfer[] {
    return [...this.queued];
  }

  random(): ContractRandom {
    this.randomSource ??= new ContractRandom(this.env.core, this.context);
    return this.randomSource;
  }
}

export function describeKey(key: DvmValue): string {
  return typeof key === 'bigint' ? `Uint64 key ${key}` : `key ${JSON.stringify(key)}`;
}

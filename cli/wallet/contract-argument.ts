/**
 * Contract and payload arguments as typed on the command line: `NAME:U=5`, `NAME:S=text`, `NAME:H=<64 hex>` name the
 * type; `NAME=VALUE` infers it — all digits is a U (uint64), anything else an S (string). An H is never inferred.
 */
import { parseRpcArgument, RpcArgumentError, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { CliError, CliErrorCode } from '../cli-error.js';

const TYPED = /^([^=:]+):([A-Za-z])=(.*)$/s;
const INFERRED = /^([^=:]+)=(.*)$/s;

/** One `NAME[:TYPE]=VALUE` argument; `inferType` allows the untyped form. */
export function parseContractArgument(text: string, inferType: boolean): RpcArgument {
  const typed = TYPED.exec(text);
  const inferred = typed || !inferType ? undefined : INFERRED.exec(text);
  if (!typed && !inferred)
    throw new CliError(
      CliErrorCode.BadArgument,
      `argument ${JSON.stringify(text)} must be NAME:TYPE=VALUE${inferType ? ' or NAME=VALUE' : ''} (TYPE: U uint64, S string, H 32-byte hash hex)`,
    );
  const [name, datatype, value] = typed
    ? [typed[1]!, typed[2]!.toUpperCase(), typed[3]!]
    : [inferred![1]!, /^[0-9]+$/.test(inferred![2]!) ? 'U' : 'S', inferred![2]!];
  try {
    return parseRpcArgument({ name, datatype, value }, 'argument');
  } catch (error) {
    if (error instanceof RpcArgumentError) throw new CliError(CliErrorCode.BadArgument, error.message);
    throw error;
  }
}

/** A list of arguments; a name may appear once. */
export function parseContractArguments(texts: readonly string[], inferType: boolean): RpcArgument[] {
  const args = texts.map((text) => parseContractArgument(text, inferType));
  const names = new Set<string>();
  for (const { name } of args) {
    if (names.has(name)) throw new CliError(CliErrorCode.BadArgument, `argument '${name}' is given more than once`);
    names.add(name);
  }
  return args;
}

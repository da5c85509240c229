/**
 * The command line's own failures (bad flags, no terminal to ask on, a declined confirmation, …) as an
 * UmbraError with `cli.*` codes, so that `--json` answers them like every other expected failure.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export enum CliErrorCode {
  /** Commander refused the command line: an unknown option, a missing argument, a bad choice. */
  Usage = 'cli.usage',
  /** A flag or argument whose value cannot be used (a ring size, a contract argument, an SCID, …). */
  BadArgument = 'cli.bad-argument',
  /** A secret or a confirmation was needed, but there is no terminal to ask on. */
  NoTerminal = 'cli.no-terminal',
  /** The person answered no, or cancelled a prompt. */
  Declined = 'cli.declined',
  /** A file named on the command line cannot be read. */
  UnreadableFile = 'cli.unreadable-file',
  /** The two typed passwords differed at every try. */
  PasswordMismatch = 'cli.password-mismatch',
  /** The wallet file is of another network than --network says. */
  WrongNetwork = 'cli.wrong-network',
  /** The daemon cannot be reached. */
  DaemonOffline = 'cli.daemon-offline',
  /** A sent transaction was not seen in a block in the time the command waits. */
  NotMined = 'cli.not-mined',
}

export class CliError extends UmbraError<CliErrorCode> {
  override readonly name = 'CliError';
}

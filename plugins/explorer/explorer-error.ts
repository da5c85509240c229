/** The explorer's one failure on purpose: what was asked for is not on this chain, or is not something it can show. */
import { UmbraError } from '../../core-native/ts/errors.js';

export enum ExplorerErrorCode {
  NotFound = 'explorer.not-found',
}

export class ExplorerError extends UmbraError<ExplorerErrorCode> {
  override readonly name = 'ExplorerError';
}

export const notFound = (message: string): ExplorerError => new ExplorerError(ExplorerErrorCode.NotFound, message);

/**
 * Serves `/explorer/…`: picks the page for a path, answers it as HTML or, with `?format=json`, as the same data in
 * exact JSON; a search redirects (302) to the page it found. What is not on the chain is a 404 page (or a JSON error
 * `{"error":{"code","message"}}`), never a stack trace.
 */
import { stringifyExactJson } from '../../protocol/exact-json.js';
import type { HttpRoute, HttpRouteResponse } from '../../host/rpc/endpoint.js';
import type { AddressView } from './address-page.js';
import type { Asset } from './assets.js';
import type { BlockView } from './block-page.js';
import type { ContractView } from './contract-page.js';
import { ExplorerError, notFound } from './explorer-error.js';
import { BASE } from './layout.js';
import type { HomeView } from './home-view.js';
import { renderNotFound } from './not-found-page.js';
import type { PoolView } from './pool-page.js';
import type { TransactionView } from './transaction-page.js';

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json';

/**
 * A page: its data for a path argument, and how to draw it. `PageHandler` without a type argument stands for any page:
 * `render` is declared as a method, so a page of any view fits there, and the router renders only its own view.
 */
export interface PageHandler<View = unknown> {
  /** The view of the path's argument; `query` holds the page's own parameters (the transaction page's `proof`). */
  view(argument: string, query: URLSearchParams): Promise<View> | View;
  render(view: View): string;
}

export interface ExplorerPages {
  home: PageHandler<HomeView>;
  block: PageHandler<BlockView>;
  tx: PageHandler<TransactionView>;
  contract: PageHandler<ContractView>;
  address: PageHandler<AddressView>;
  pool: PageHandler<PoolView>;
  /** The explorer path a search query names. */
  search(query: string): Promise<string>;
  assets: Map<string, Asset>;
}

/** Pages that take one argument after their name, e.g. `block/12`. */
const WITH_ARGUMENT = new Set(['block', 'tx', 'contract', 'address']);

function failure(error: ExplorerError, json: boolean): HttpRouteResponse {
  return json
    ? {
        status: 404,
        contentType: JSON_TYPE,
        body: stringifyExactJson({ error: { code: error.code, message: error.message } }),
      }
    : { status: 404, contentType: HTML, body: renderNotFound(error.message) };
}

export function explorerRoute(pages: ExplorerPages): HttpRoute {
  const answer = async (path: string, query: URLSearchParams, json: boolean): Promise<HttpRouteResponse> => {
    const rest = path.slice(BASE.length);
    if (rest.startsWith('assets/')) {
      const asset = pages.assets.get(rest.slice('assets/'.length));
      if (!asset) throw notFound(`no explorer asset ${rest}`);
      return {
        status: 200,
        body: asset.body,
        contentType: asset.contentType,
        headers: { 'Cache-Control': 'max-age=3600' },
      };
    }
    if (rest === 'search') {
      const location = await pages.search(query.get('q') ?? '');
      return {
        status: 302,
        body: '',
        contentType: HTML,
        headers: { Location: json ? `${location}?format=json` : location },
      };
    }
    const slash = rest.indexOf('/');
    const name = slash === -1 ? rest : rest.slice(0, slash);
    const argument = slash === -1 ? '' : decodeURIComponent(rest.slice(slash + 1));
    const handler: PageHandler | undefined =
      rest === ''
        ? pages.home
        : rest === 'pool'
          ? pages.pool
          : WITH_ARGUMENT.has(name) && argument !== '' && !argument.includes('/')
            ? pages[name as 'block']
            : undefined;
    if (!handler) throw notFound(`no explorer page ${path}`);
    const view = await handler.view(argument, query);
    return json
      ? { status: 200, contentType: JSON_TYPE, body: stringifyExactJson(view) }
      : { status: 200, contentType: HTML, body: handler.render(view) };
  };

  return async (request) => {
    const json = request.query.get('format') === 'json';
    try {
      return await answer(request.path, request.query, json);
    } catch (error) {
      if (error instanceof ExplorerError) return failure(error, json);
      if (error instanceof URIError) return failure(notFound(`${request.path} is not a valid path`), json);
      throw error;
    }
  };
}

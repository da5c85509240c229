/** RpcEndpoint's HTTP routes: exact paths, GET prefix routes, and which route serves a path. */
import t from 'tap';
import { RpcEndpoint, type HttpRoute } from '../../../host/rpc/endpoint.js';

const endpoint = () =>
  new RpcEndpoint({ name: 'daemon', bind: '127.0.0.1:0', login: '', maxBodyBytes: 1024, label: 'UMBRA' });
const answer =
  (body: string): HttpRoute =>
  async () => ({ status: 200, body });

t.test('an exact route wins over a prefix route; a prefix route serves every path under it', async (t) => {
  const server = endpoint();
  const pages = answer('pages');
  const exact = answer('exact');
  server.addPrefixRoute('/explorer/', pages);
  server.addRoute('/explorer/special', exact);
  t.equal(server.routeFor('/explorer/'), pages);
  t.equal(server.routeFor('/explorer/block/12'), pages);
  t.equal(server.routeFor('/explorer/special'), exact);
  t.equal(server.routeFor('/explorer'), undefined, 'the folder without its slash is not under the prefix');
  t.equal(server.routeFor('/explorers/'), undefined);
  t.equal(server.routeFor('/'), undefined);
});

t.test('prefixes must name a folder and may not overlap', async (t) => {
  const server = endpoint();
  server.addPrefixRoute('/explorer/', answer('a'));
  t.throws(() => server.addPrefixRoute('/explorer/', answer('b')), /overlaps \/explorer\//);
  t.throws(() => server.addPrefixRoute('/explorer/assets/', answer('b')), /overlaps/);
  t.throws(() => server.addPrefixRoute('/', answer('b')), /must start and end with \/ and name a folder/);
  t.throws(() => server.addPrefixRoute('/x', answer('b')), /must start and end with \//);
  t.throws(() => server.addPrefixRoute('x/', answer('b')), /must start and end with \//);
});

// The layering rules of docs/architecture.md, checked by `make lint` (depcruise host plugins wallet core-native/ts).
// Tests under test/ may import anything, so they are not cruised.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'plugin-to-other-plugin',
      comment: 'A plugin reaches another only through the services it declares in host/services, never by import.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
    },
    {
      name: 'host-to-plugin',
      comment: 'The host knows plugins only by name; the catalog alone imports the built-in ones, dynamically.',
      severity: 'error',
      from: { path: '^host/', pathNot: '^host/plugins/catalog\\.ts$' },
      to: { path: '^plugins/' },
    },
    {
      name: 'wallet-to-plugins-or-rpc',
      comment: 'The wallet library talks to a daemon over its client; it imports no plugin and no RPC server code.',
      severity: 'error',
      from: { path: '^wallet/' },
      to: { path: '^(plugins/|host/rpc/)' },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle of runtime imports makes load order matter. Type-only imports vanish at run time, and the ' +
        "catalog's dynamic import of a plugin (which imports the host) runs after loading: neither closes a cycle.",
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import', 'type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

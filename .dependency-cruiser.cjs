// The layering rules of docs/architecture.md, checked by `make lint`. Every import runs downhill:
//   core-native/ts  →  protocol/  →  host/ (the kernel)  →  wallet/  →  plugins/  →  cli/
// A layer may import the layers to its left, never one to its right. Tests under test/ may import anything, so they
// are not cruised; bench/ and scripts/ sit beside cli/ at the top.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-native-stands-alone',
      comment: "The addon's TypeScript face knows nothing of the node.",
      severity: 'error',
      from: { path: '^core-native/' },
      to: { path: '^(protocol|host|wallet|plugins|cli)/' },
    },
    {
      name: 'protocol-is-the-bottom',
      comment: 'The protocol library (encodings, transactions, transfer building) imports only the addon.',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { path: '^(host|wallet|plugins|cli)/' },
    },
    {
      name: 'kernel-below-wallet-plugins-cli',
      comment:
        'The kernel (host/) imports only protocol/ and the addon. It knows plugins by name: the catalog alone ' +
        'imports the built-in ones, dynamically. A layer above adds its service to `Services` by augmenting it.',
      severity: 'error',
      from: { path: '^host/', pathNot: '^host/plugins/catalog\\.ts$' },
      to: { path: '^(wallet|plugins|cli)/' },
    },
    {
      name: 'catalog-loads-plugins-only',
      comment: 'The catalog reaches plugins by dynamic import, and nothing above the kernel.',
      severity: 'error',
      from: { path: '^host/plugins/catalog\\.ts$' },
      to: { path: '^(wallet|cli)/' },
    },
    {
      name: 'wallet-below-plugins-and-rpc-serving',
      comment:
        'The wallet library talks to a daemon over its client; it imports no plugin, no RPC server code, no CLI.',
      severity: 'error',
      from: { path: '^wallet/' },
      to: { path: '^(plugins|cli|host/rpc)/' },
    },
    {
      name: 'plugins-below-cli',
      comment: 'Plugins are used by the applications, never the other way round.',
      severity: 'error',
      from: { path: '^plugins/' },
      to: { path: '^cli/' },
    },
    {
      name: 'plugin-to-other-plugin',
      comment: 'A plugin reaches another only through the services it declares in host/services, never by import.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
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

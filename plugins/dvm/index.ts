/**
 * The `dvm` plugin: the contract VM, registered as the `contractVm` service (host/services/contract-vm.ts) for the
 * consensus plugin (transaction execution, gas estimates) and for `umbra contract run`.
 */
import type { Plugin } from '../../host/plugin.js';
import { addressCodec } from '../../protocol/address.js';
import { provideServices } from '../../host/services/services.js';
import { DvmContractVm } from './contract-vm.js';

const plugin: Plugin = {
  name: 'dvm',
  requires: [],
  provides: ['contractVm'],
  register(container) {
    const { core, network } = container.cradle;
    provideServices(container, { contractVm: new DvmContractVm(core, addressCodec(network.name, core)) });
  },
};

export default plugin;

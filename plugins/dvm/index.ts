/**
 * The `dvm` plugin: the contract VM, registered as the `contractVm` service (host/services/contract-vm.ts) for the
 * consensus plugin (transaction execution, gas estimates) and for `umbra contract run`.
 */
import { asValue } from 'awilix';
import type { Plugin } from '../../host/plugin.js';
import { addressCodec } from '../../host/protocol/address.js';
import type { BaseServices } from '../../host/services/base.js';
import { DvmContractVm } from './contract-vm.js';

const plugin: Plugin = {
  name: 'dvm',
  requires: [],
  register(container) {
    const { core, network } = container.cradle as BaseServices;
    container.register({ contractVm: asValue(new DvmContractVm(core, addressCodec(network.name, core))) });
  },
};

export default plugin;
